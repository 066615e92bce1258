import DeltaSyncClient
import Foundation
import GRDB
import Testing

/// What `ObservedRows` relies on to reuse the models of unchanged rows, checked against SQLite,
/// and query snapshots against fresh queries over random changes.
@Suite("Observed queries: rowids and reused rows", .timeLimit(.minutes(1)))
struct ObservedRowsTests {
    private func rowid(of id: String, in store: DataStore) async throws -> Int64? {
        let table = try store.store.table("Post").quotedName
        return try await store.store.read { db in try Int64.fetchOne(db, sql: "SELECT rowid FROM \(table) WHERE id = ?", arguments: [id]) }
    }

    private func synced(_ id: String, _ title: String, version: Int, deleted: Bool = false) -> Item {
        var item = Post(id: id, blogID: "b1", title: title).item
        item["_version"] = .int(version)
        item["_lastChangedAt"] = .int(1_700_000_000_000 + version)
        item["_deleted"] = .bool(deleted)
        return item
    }

    @Test("every rewrite of a row gives it a new rowid, even the table's last row saved unchanged")
    func rewritesGiveNewRowids() async throws {
        let store = try DataStore(models: DeltaSyncModels.self)
        try await store.save(Post(id: "p1", blogID: "b1", title: "One"))
        try await store.save(Post(id: "p2", blogID: "b1", title: "Two"))
        let first = try #require(try await rowid(of: "p2", in: store))
        try await store.save(Post(id: "p2", blogID: "b1", title: "Two"))
        let second = try #require(try await rowid(of: "p2", in: store))
        #expect(second > first)
        _ = try await store.applyRemote("Post", records: [synced("r1", "Remote", version: 1)])
        let remote = try #require(try await rowid(of: "r1", in: store))
        _ = try await store.applyRemote("Post", records: [synced("r1", "Remote, edited", version: 2)])
        #expect(try #require(try await rowid(of: "r1", in: store)) > remote)
        try await store.delete(Post.self, withId: "p1")
        #expect(try #require(try await rowid(of: "p1", in: store)) > remote, "a tombstone is a rewrite too")
    }

    @Test("after clear() SQLite gives old rowids again, and a live query reads every row anew")
    func clearReusesRowids() async throws {
        let store = try DataStore(models: DeltaSyncModels.self)
        try await store.save(Post(id: "p1", blogID: "b1", title: "Before the clear"))
        let before = try await rowid(of: "p1", in: store)
        let posts = await MainActor.run { store.liveQuery(Post.self) }
        var snapshots = store.observeQuery(for: Post.self).makeAsyncIterator()
        _ = try await snapshots.next()

        try await store.clear()
        #expect(try await snapshots.next()?.items.isEmpty == true, "observers are told of the clear")
        try await store.save(Post(id: "p1", blogID: "b1", title: "After the clear"))
        #expect(try await rowid(of: "p1", in: store) == before, "the reason clears are counted")
        #expect(try await snapshots.next()?.items.map(\.title) == ["After the clear"])
        let deadline = ContinuousClock.now + .seconds(10)
        while await posts.items.map(\.title) != ["After the clear"], ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(await posts.items.map(\.title) == ["After the clear"])
    }

    @Test("query snapshots equal a fresh query after every one of 300 random changes", arguments: [1, 2, 3])
    func snapshotsFollowRandomChanges(seed: UInt64) async throws {
        let store = try DataStore(models: DeltaSyncModels.self)
        var random = SplitMix(seed: seed)
        let predicate = Post.keys.rating >= 2
        let sort: [QuerySortDescriptor] = [.descending(Post.keys.rating), .ascending(Post.keys.id)]
        var snapshots = store.observeQuery(for: Post.self, where: predicate, sort: sort).makeAsyncIterator()
        _ = try await snapshots.next()
        var liveLocal = Set<String>(), remoteVersions: [String: Int] = [:], liveRemote = Set<String>()
        for step in 0..<300 {
            let roll = random.next() % 100
            if roll < 50 {
                let id = "l\(random.next() % 20)"
                try await store.save(Post(id: id, blogID: "b1", title: "Local \(step)", rating: Int(random.next() % 5)))
                liveLocal.insert(id)
            } else if roll < 65, let id = liveLocal.randomElement(using: &random) {
                try await store.delete(Post.self, withId: id)
                liveLocal.remove(id)
            } else if roll < 98 {
                // Remote items never have local mutations pending, so nothing is held back.
                let id = "r\(random.next() % 20)"
                let version = remoteVersions[id, default: 0] + 1
                let deleted = liveRemote.contains(id) && random.next() % 4 == 0
                guard liveRemote.contains(id) || !deleted else { continue }
                var record = synced(id, "Remote \(step)", version: version, deleted: deleted)
                record["rating"] = .int(Int(random.next() % 5))
                _ = try await store.applyRemote("Post", records: [record])
                remoteVersions[id] = version
                if deleted { liveRemote.remove(id) } else { liveRemote.insert(id) }
            } else {
                try await store.clear()
                (liveLocal, liveRemote, remoteVersions) = ([], [], [:])
            }
            let snapshot = try #require(try await snapshots.next())
            let fresh = try await store.query(Post.self, where: predicate, sort: sort)
            #expect(snapshot.items == fresh, "seed \(seed), step \(step)")
        }
    }
}

/// A seeded generator, so that a failing run can be replayed.
private struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
