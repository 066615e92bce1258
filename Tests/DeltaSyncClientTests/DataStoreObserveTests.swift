import DeltaSyncClient
import Foundation
import Testing

@Suite("DataStore: observe and observeQuery", .timeLimit(.minutes(1)))
struct DataStoreObserveTests {
    @Test("observe delivers every change in commit order, even from concurrent writers")
    func observeOrder() async throws {
        let store = try DataStore(models: DeltaSyncModels.self)
        var synced = Post(id: "synced", blogID: "b1", title: "On the server").item
        synced["_version"] = 1
        synced["_lastChangedAt"] = 1
        _ = try await store.applyRemote("Post", records: [synced])
        var changes = store.observe(Post.self).makeAsyncIterator()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for n in 0..<20 {
                group.addTask { try await store.save(Post(id: "p\(n)", blogID: "b1", title: "T\(n)")) }
            }
            try await group.waitForAll()
        }
        try await store.save(Blog(id: "b1", name: "not a post"))
        try await store.delete(Post.self, withId: "synced")

        var seen: [String] = []
        for _ in 0..<21 {
            let change = try #require(await changes.next())
            #expect(!change.isRemote)
            seen.append("\(change.mutationType.rawValue):\(change.model.id)")
        }
        let committed = try await store.pendingMutations().filter { $0.modelName == "Post" }
        #expect(seen == committed.map { "\($0.mutationType.rawValue):\($0.modelID)" }, "the outbox is in commit order too")
        #expect(seen.last == "delete:synced")
    }

    @Test("observing one model sees only its changes")
    func observeOne() async throws {
        let store = try DataStore(models: DeltaSyncModels.self)
        var changes = store.observe(Post.self, identifier: "p2").makeAsyncIterator()
        try await store.save(Post(id: "p1", blogID: "b1", title: "One"))
        try await store.save(Post(id: "p2", blogID: "b1", title: "Two"))
        try await store.save(Post(id: "p2", blogID: "b1", title: "Two, edited"))
        let first = try #require(await changes.next())
        let second = try #require(await changes.next())
        #expect(first.mutationType == .create && first.model.title == "Two")
        #expect(second.mutationType == .update && second.model.title == "Two, edited")
    }

    @Test("observeQuery starts with the results, then follows every change, sorted and filtered")
    func observeQuery() async throws {
        let store = try DataStore(models: DeltaSyncModels.self)
        try await store.save(Post(id: "p1", blogID: "b1", title: "One", rating: 5))
        var snapshots = store.observeQuery(for: Post.self, where: Post.keys.rating >= 3, sort: [.ascending(Post.keys.rating)])
            .makeAsyncIterator()
        let initial = try #require(try await snapshots.next())
        #expect(initial.items.map(\.id) == ["p1"])
        #expect(!initial.isSynced)

        try await store.save(Post(id: "p2", blogID: "b1", title: "Two", rating: 4))
        #expect(try await snapshots.next()?.items.map(\.id) == ["p2", "p1"])
        try await store.save(Post(id: "p1", blogID: "b1", title: "One", rating: 1))  // stops matching
        #expect(try await snapshots.next()?.items.map(\.id) == ["p2"])
        try await store.delete(Post.self, withId: "p2")
        #expect(try await snapshots.next()?.items.isEmpty == true)
    }
}
