import DeltaSyncClient
import Foundation
import Testing

@Suite("DataStore: saving, deleting and the outbox")
struct DataStoreWriteTests {
    let store: DataStore

    init() throws {
        store = try DataStore(models: DeltaSyncModels.self)
    }

    @Test("a save creates, a second save updates, each with exactly one outbox entry")
    func saveCreatesThenUpdates() async throws {
        var post = Post(id: "p1", blogID: "b1", title: "First", rating: 3)
        try await store.save(post)
        #expect(try await store.query(Post.self, byId: "p1") == post)

        post.title = "Renamed"
        try await store.save(post)
        #expect(try await store.query(Post.self, byId: "p1")?.title == "Renamed")

        let outbox = try await store.pendingMutations()
        #expect(outbox.map(\.mutationType) == [.create, .update])
        #expect(outbox.map(\.modelName) == ["Post", "Post"])
        #expect(outbox.last?.item["title"] == "Renamed")
        #expect(outbox.last?.modelID == "p1")
    }

    @Test("a condition is checked against the stored model and kept for the server")
    func conditionalSave() async throws {
        var post = Post(id: "p1", blogID: "b1", title: "First", rating: 3)
        await #expect(throws: DataStoreError.self) {
            try await store.save(post, where: Post.keys.rating == 3)  // does not exist yet
        }
        try await store.save(post)
        post.rating = 4
        await #expect(throws: DataStoreError.self) {
            try await store.save(post, where: Post.keys.rating > 3)
        }
        #expect(try await store.query(Post.self, byId: "p1")?.rating == 3, "a failed condition writes nothing")
        #expect(try await store.pendingMutations().count == 1, "a failed condition enqueues nothing")

        try await store.save(post, where: Post.keys.rating == 3)
        let last = try #require(try await store.pendingMutations().last)
        #expect(last.condition == ["rating": ["eq": 3]])
        #expect(try await store.query(Post.self, byId: "p1")?.rating == 4)
    }

    @Test("deleting a parent deletes its children first, each with its own outbox entry")
    func cascadeDelete() async throws {
        try await store.save(Blog(id: "b1", name: "Blog"))
        try await store.save(Post(id: "p1", blogID: "b1", title: "One"))
        try await store.save(Post(id: "p2", blogID: "b1", title: "Two"))
        try await store.save(Comment(id: "c1", content: "Hi", postCommentsId: "p1"))
        try await store.save(Post(id: "other", blogID: "b2", title: "Elsewhere"))
        let before = try await store.pendingMutations().count

        try await store.delete(Blog.self, withId: "b1")

        let deletes = try await store.pendingMutations().dropFirst(before)
        #expect(deletes.allSatisfy { $0.mutationType == .delete })
        let order = deletes.map { "\($0.modelName):\($0.modelID)" }
        #expect(Set(order) == ["Comment:c1", "Post:p1", "Post:p2", "Blog:b1"])
        let position = { (entry: String) in order.firstIndex(of: entry)! }
        #expect(position("Comment:c1") < position("Post:p1"), "children before parents")
        #expect(position("Post:p1") < position("Blog:b1") && position("Post:p2") < position("Blog:b1"))

        #expect(try await store.query(Blog.self).isEmpty)
        #expect(try await store.query(Comment.self).isEmpty)
        #expect(try await store.query(Post.self).map(\.id) == ["other"])
    }

    @Test("a delete condition is checked locally; deleting a missing model does nothing")
    func conditionalDelete() async throws {
        let post = Post(id: "p1", blogID: "b1", title: "One", rating: 2)
        try await store.save(post)
        await #expect(throws: DataStoreError.self) { try await store.delete(post, where: Post.keys.rating > 2) }
        #expect(try await store.query(Post.self, byId: "p1") != nil)

        try await store.delete(Post.self, withId: "missing")
        #expect(try await store.pendingMutations().count == 1)

        try await store.delete(post, where: Post.keys.rating == 2)
        #expect(try await store.query(Post.self, byId: "p1") == nil)
        let last = try #require(try await store.pendingMutations().last)
        #expect(last.mutationType == .delete && last.condition == nil, "a single delete's condition is not sent")
    }

    @Test("deleting by predicate deletes every match and sends the predicate as each condition")
    func batchDelete() async throws {
        for n in 1...5 { try await store.save(Post(id: "p\(n)", blogID: "b1", title: "T\(n)", rating: n)) }
        try await store.delete(Post.self, where: Post.keys.rating >= 4)
        #expect(try await store.query(Post.self, sort: [.ascending(Post.keys.rating)]).map(\.id) == ["p1", "p2", "p3"])
        let deletes = try await store.pendingMutations().filter { $0.mutationType == .delete }
        #expect(Set(deletes.map(\.modelID)) == ["p4", "p5"])
        #expect(deletes.allSatisfy { $0.condition == ["rating": ["ge": 4]] })
    }

    @Test("a composite primary key identifies a model everywhere an id does")
    func compositeKey() async throws {
        try await store.save(Reaction(postID: "p1", userID: "u1", emoji: "👍"))
        try await store.save(Reaction(postID: "p1", userID: "u2", emoji: "🎉"))
        let key = ModelIdentifier(["postID": "p1", "userID": "u2"])
        #expect(try await store.query(Reaction.self, byIdentifier: key)?.emoji == "🎉")
        try await store.delete(Reaction.self, withIdentifier: key)
        #expect(try await store.query(Reaction.self).map(\.userID) == ["u1"])
        #expect(try await store.pendingMutations().last?.modelID == "postID=p1#userID=u2")
    }

    @Test("clear() removes models, the outbox and sync state")
    func clear() async throws {
        try await store.save(Post(id: "p1", blogID: "b1", title: "One"))
        try await store.clear()
        #expect(try await store.query(Post.self).isEmpty)
        #expect(try await store.pendingMutations().isEmpty)
    }
}
