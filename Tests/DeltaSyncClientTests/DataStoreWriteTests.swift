import DeltaSyncClient
import Foundation
import Testing

@Suite("DataStore: saving, deleting and the outbox")
struct DataStoreWriteTests {
    let store: DataStore

    init() throws {
        store = try DataStore(models: DeltaSyncModels.self)
    }

    /// Items as a sync page would deliver them: already on the server, with a version.
    func seedSynced(_ items: [Item], as model: String) async throws {
        let synced = items.map { item -> Item in
            var item = item
            item["_version"] = 3
            item["_lastChangedAt"] = 1_700_000_000_000
            return item
        }
        _ = try await store.applyRemote(model, records: synced)
    }

    @Test("a save creates, a second save updates; each write is recorded in the outbox")
    func saveCreatesThenUpdates() async throws {
        var post = Post(id: "p1", blogID: "b1", title: "First", rating: 3)
        try await store.save(post)
        #expect(try await store.query(Post.self, byId: "p1") == post)
        #expect(try await store.pendingMutations().map(\.mutationType) == [.create])

        post.title = "Renamed"
        try await store.save(post)
        #expect(try await store.query(Post.self, byId: "p1")?.title == "Renamed")
        let outbox = try await store.pendingMutations()
        #expect(outbox.map(\.mutationType) == [.create], "an update of an unsent create is merged into it")
        #expect(outbox.first?.item["title"] == "Renamed")

        try await seedSynced([Post(id: "s1", blogID: "b1", title: "Synced").item], as: "Post")
        var synced = try #require(try await store.query(Post.self, byId: "s1"))
        synced.title = "Edited"
        try await store.save(synced)
        let update = try #require(try await store.pendingMutations().last)
        #expect(update.mutationType == .update && update.modelID == "s1")
        #expect(update.item["_version"] == 3, "the version the server gave travels with the update")
    }

    @Test("pending mutations of one item merge as Amplify's outbox does")
    func outboxMerging() async throws {
        try await seedSynced([Post(id: "s1", blogID: "b1", title: "A").item, Post(id: "s2", blogID: "b1", title: "B").item], as: "Post")
        // create -> delete: nothing to send.
        try await store.save(Post(id: "new", blogID: "b1", title: "Gone"))
        try await store.delete(Post.self, withId: "new")
        // update -> update: the newest; update -> delete: the delete.
        var s1 = try #require(try await store.query(Post.self, byId: "s1"))
        s1.title = "A1"
        try await store.save(s1)
        s1.title = "A2"
        try await store.save(s1)
        var s2 = try #require(try await store.query(Post.self, byId: "s2"))
        s2.title = "B1"
        try await store.save(s2)
        try await store.delete(s2)
        // A conditional change is never merged.
        s1.title = "A3"
        try await store.save(s1, where: Post.keys.title == "A2")

        let outbox = try await store.pendingMutations()
        #expect(outbox.map { "\($0.mutationType.rawValue):\($0.modelID)" } == ["update:s1", "delete:s2", "update:s1"])
        #expect(outbox[0].item["title"] == "A2")
        #expect(outbox[2].condition == ["title": ["eq": "A2"]])
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
        try await seedSynced([Blog(id: "b1", name: "Blog").item], as: "Blog")
        try await seedSynced(
            [Post(id: "p1", blogID: "b1", title: "One").item, Post(id: "p2", blogID: "b1", title: "Two").item,
             Post(id: "other", blogID: "b2", title: "Elsewhere").item], as: "Post")
        try await seedSynced([Comment(id: "c1", content: "Hi", postCommentsId: "p1").item], as: "Comment")

        try await store.delete(Blog.self, withId: "b1")

        let deletes = try await store.pendingMutations()
        #expect(deletes.allSatisfy { $0.mutationType == .delete && $0.item["_version"] == 3 })
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
        try await seedSynced([Post(id: "p1", blogID: "b1", title: "One", rating: 2).item], as: "Post")
        let post = try #require(try await store.query(Post.self, byId: "p1"))
        await #expect(throws: DataStoreError.self) { try await store.delete(post, where: Post.keys.rating > 2) }
        #expect(try await store.query(Post.self, byId: "p1") != nil)

        try await store.delete(Post.self, withId: "missing")
        #expect(try await store.pendingMutations().isEmpty)

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
        #expect(try await store.pendingMutations().map(\.modelID) == ["postID=p1#userID=u1"], "u2 never reached the server")
    }

    @Test("clear() removes models, the outbox and sync state")
    func clear() async throws {
        try await store.save(Post(id: "p1", blogID: "b1", title: "One"))
        try await store.clear()
        #expect(try await store.query(Post.self).isEmpty)
        #expect(try await store.pendingMutations().isEmpty)
    }

    @Test("applying synced records keeps the newest version, even when a page holds an item twice")
    func applyKeepsTheNewestVersion() async throws {
        func reaction(_ user: String, _ emoji: String, version: Int, deleted: Bool = false) -> Item {
            var item = Reaction(postID: "p1", userID: user, emoji: emoji).item
            item["_version"] = .int(version)
            item["_lastChangedAt"] = .int(1_700_000_000_000 + version)
            if deleted { item["_deleted"] = true }
            return item
        }
        var counts = try await store.applyRemote("Reaction", records: [reaction("u1", "a", version: 2), reaction("u2", "b", version: 1)])
        #expect(counts == RemoteApplyCounts(added: 2))
        // A delta page lists every change, oldest first: only each item's newest version counts,
        // and a version older than the stored one changes nothing.
        counts = try await store.applyRemote(
            "Reaction",
            records: [reaction("u1", "old", version: 1), reaction("u2", "c", version: 2), reaction("u2", "d", version: 3),
                      reaction("u3", "e", version: 1), reaction("u3", "e", version: 2, deleted: true)])
        #expect(counts == RemoteApplyCounts(updated: 1, skipped: 3), "u1 is older, u2's and u3's first versions are superseded; u3 was never here")
        #expect(try await store.query(Reaction.self, sort: [.ascending(Reaction.keys.userID)]).map(\.emoji) == ["a", "d"])
    }

    @Test("a page mixing new and stored items, longer than one insert statement, stores each item once at its newest version")
    func applyMixedPage() async throws {
        func post(_ n: Int, version: Int, deleted: Bool = false) -> Item {
            var item = Post(id: "p\(n)", blogID: "b1", title: "Version \(version)").item
            item["_version"] = .int(version)
            item["_lastChangedAt"] = .int(1_700_000_000_000 + version)
            if deleted { item["_deleted"] = true }
            return item
        }
        // Every third of 300 posts is stored already, some at a newer version than the page's.
        let stored = stride(from: 0, to: 300, by: 3).map { post($0, version: $0 % 2 == 0 ? 5 : 1) }
        #expect(try await store.applyRemote("Post", records: stored) == RemoteApplyCounts(added: 100))
        let page = (0..<300).map { n in post(n, version: 2, deleted: n == 1) }
        let counts = try await store.applyRemote("Post", records: page)
        #expect(counts == RemoteApplyCounts(added: 199, updated: 50, skipped: 50), "p1 is a tombstone of an item never seen")
        let titles = Dictionary(uniqueKeysWithValues: try await store.query(Post.self).map { ($0.id, $0.title) })
        #expect(titles.count == 299)
        for n in 0..<300 where n != 1 {
            let expected = n % 3 == 0 && n % 2 == 0 ? "Version 5" : "Version 2"
            #expect(titles["p\(n)"] == expected, "p\(n)")
        }
    }
}
