import DeltaSyncClient
import Foundation
import Testing

@Suite("DataStore: typed identifiers, withId and id", .timeLimit(.minutes(1)))
struct TypedIdentifierTests {
    /// Reactions that share a post or a user with each other, and two posts.
    private func store() async throws -> DataStore {
        let store = try DataStore(models: DeltaSyncModels.self)
        try await store.save(Post(id: "p1", blogID: "b1", title: "One", status: .draft))
        try await store.save(Post(id: "p2", blogID: "b1", title: "Two", status: .published))
        for (post, user, emoji) in [("p1", "u1", "👍"), ("p1", "u2", "🎉"), ("p2", "u1", "👀")] {
            try await store.save(Reaction(postID: post, userID: user, emoji: emoji))
        }
        return store
    }

    @Test("a typed identifier finds its row, a composite one too")
    func typedIdentifiersFindTheRightRows() async throws {
        let store = try await store()
        #expect(try await store.query(Post.self, byIdentifier: Post.identifier(id: "p2"))?.title == "Two")
        #expect(try await store.query(Reaction.self, byIdentifier: Reaction.identifier(postID: "p1", userID: "u2"))?.emoji == "🎉")
        #expect(try await store.query(Reaction.self, byIdentifier: Reaction.identifier(postID: "p2", userID: "u1"))?.emoji == "👀")
        #expect(try await store.query(Reaction.self, byIdentifier: Reaction.identifier(postID: "p2", userID: "u2")) == nil)
    }

    @Test("deleting by a typed identifier deletes that row alone")
    func deleteByTypedIdentifier() async throws {
        let store = try await store()
        try await store.delete(Reaction.self, withIdentifier: Reaction.identifier(postID: "p1", userID: "u1"))
        let left = try await store.query(Reaction.self, sort: [.ascending(Reaction.keys.postID), .ascending(Reaction.keys.userID)])
        #expect(left.map(\.emoji) == ["🎉", "👀"])
    }

    @Test("observing a typed identifier sees that model's changes alone")
    func observeByTypedIdentifier() async throws {
        let store = try await store()
        var changes = store.observe(Reaction.self, identifier: Reaction.identifier(postID: "p1", userID: "u2")).makeAsyncIterator()
        try await store.save(Reaction(postID: "p1", userID: "u1", emoji: "👎"))
        try await store.save(Reaction(postID: "p2", userID: "u2", emoji: "🚀"))
        try await store.save(Reaction(postID: "p1", userID: "u2", emoji: "❤️"))
        let change = try #require(await changes.next())
        #expect(change.mutationType == .update)
        #expect(change.model.emoji == "❤️")
    }

    @Test("delete withId where: a false condition refuses and keeps the model, a true one deletes it")
    func deleteWithIdWhere() async throws {
        let store = try await store()
        await #expect(throws: DataStoreError.self) {
            try await store.delete(Post.self, withId: "p2", where: Post.keys.status == PostStatus.draft)
        }
        #expect(try await store.query(Post.self, byId: "p2") != nil)
        #expect(try await store.pendingMutations().allSatisfy { $0.mutationType != .delete })

        try await store.delete(Post.self, withId: "p2", where: Post.keys.status == PostStatus.published)
        #expect(try await store.query(Post.self, byId: "p2") == nil)
        #expect(try await store.query(Post.self, byId: "p1") != nil)
    }

    @Test("the condition of delete withId is checked as conditionFailed, naming the model")
    func deleteWithIdConditionError() async throws {
        let store = try await store()
        do {
            try await store.delete(Post.self, withId: "p1", where: Post.keys.rating > 3)
            Issue.record("the delete went through")
        } catch {
            guard case .conditionFailed(let model, _) = error else { throw error }
            #expect(model == "Post")
        }
    }

    @Test("observe id sees that model's changes alone")
    func observeByID() async throws {
        let store = try await store()
        var changes = store.observe(Post.self, id: "p1").makeAsyncIterator()
        try await store.save(Post(id: "p2", blogID: "b1", title: "Two, edited"))
        try await store.delete(Post.self, withId: "p1")
        let change = try #require(await changes.next())
        #expect(change.mutationType == .delete)
        #expect(change.model.id == "p1")
    }

    @Test("an id or a key that does not name the model's key is an error that says what to use")
    func invalidIdentifiers() async throws {
        let store = try await store()
        await #expect(throws: DataStoreError.self) { try await store.query(Reaction.self, byId: "p1") }
        do {
            _ = try await store.query(Reaction.self, byIdentifier: ModelIdentifier(["postID": "p1"]))
            Issue.record("a partial key found a model")
        } catch {
            guard case .invalidIdentifier(let model, let reason) = error else { throw error }
            #expect(model == "Reaction")
            #expect(reason.contains("Reaction.identifier(postID:userID:)"))
        }
        await #expect(throws: DataStoreError.self) { try await store.delete(Reaction.self, withId: "p1") }
        #expect(try await store.query(Reaction.self).count == 3, "nothing was deleted")

        let reported = Reported()
        let observed = try DataStore(models: DeltaSyncModels.self, errorHandler: { reported.append($0) })
        var changes = observed.observe(Reaction.self, id: "p1").makeAsyncIterator()
        #expect(await changes.next() == nil, "the sequence ends at once")
        #expect(reported.errors.count == 1)
    }

    @Test("typed identifiers are Identifiable ids, and print as the outbox writes keys")
    func identifiable() throws {
        let like = Reaction(postID: "p1", userID: "u1", emoji: "👍")
        #expect(like.id == Reaction.identifier(postID: "p1", userID: "u1"))
        #expect(like.id != Reaction.identifier(postID: "p1", userID: "u2"))
        #expect(Post(id: "p1", blogID: "b1", title: "One").id == "p1")
        #expect(TypedModelIdentifier(of: like) == like.id)
        #expect(like.id.description == "postID=p1#userID=u1")
        #expect(Post.identifier(id: "p1").untyped == "p1")
    }
}
