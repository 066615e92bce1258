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

    @Test("a sync page mixing new and known items is observed in the page's order, each change as what it did")
    func observeRemotePage() async throws {
        let store = try DataStore(models: DeltaSyncModels.self)
        func synced(_ id: String, _ title: String, version: Int, deleted: Bool = false) -> Item {
            var item = Post(id: id, blogID: "b1", title: title).item
            item["_version"] = .int(version)
            item["_lastChangedAt"] = .int(1_700_000_000_000 + version)
            item["_deleted"] = .bool(deleted)
            return item
        }
        _ = try await store.applyRemote("Post", records: [synced("known", "Known", version: 1), synced("gone", "Gone", version: 1)])
        var changes = store.observe(Post.self).makeAsyncIterator()
        let counts = try await store.applyRemote(
            "Post",
            records: [
                synced("new1", "New", version: 1), synced("known", "Known, edited", version: 2), synced("stale", "Never here", version: 3, deleted: true),
                synced("gone", "Gone", version: 2, deleted: true), synced("new2", "Newer", version: 1),
            ])
        #expect(counts == RemoteApplyCounts(added: 2, updated: 1, deleted: 1))
        var seen: [String] = []
        for _ in 0..<4 {
            let change = try #require(await changes.next())
            #expect(change.isRemote)
            seen.append("\(change.mutationType.rawValue):\(change.model.id)")
        }
        #expect(seen == ["create:new1", "update:known", "delete:gone", "create:new2"])
        #expect(try await store.query(Post.self, sort: [.ascending(Post.keys.id)]).map(\.title) == ["Known, edited", "New", "Newer"])
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
