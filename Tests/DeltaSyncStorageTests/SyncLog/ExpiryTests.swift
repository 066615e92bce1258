import DeltaSyncCore
import DeltaSyncSQLiteStore
import DeltaSyncSchema
import DeltaSyncStorage
import GRDB
import Testing

@Suite("Expiry of deltas and tombstones")
struct ExpiryTests {
    let post = Fixtures.post
    let reading = Fixtures.reading

    @Test("removes exactly the expired deltas and tombstones, in batches, and counts them", arguments: StoreKind.allCases)
    func purge(kind: StoreKind) async throws {
        try await kind.withStore(post, reading) { store in
            try await store.write { tx in
                // 1,200 expired deltas across two models (more than two batches of one), 3 kept.
                for i in 0..<1_100 { try tx.appendDelta(post, item: ["id": .string("p\(i)")], changedAt: 1_000 + i) }
                for i in 0..<100 { try tx.appendDelta(reading, item: ["sensor": "s", "day": "d", "seq": .int(i)], changedAt: i) }
                for t in [5_000, 5_001] { try tx.appendDelta(post, item: ["id": "kept"], changedAt: t) }
                try tx.appendDelta(reading, item: ["sensor": "s", "day": "d", "seq": 0], changedAt: 9_999)

                // 1,001 expired tombstones (`_ttl` at or before 300), and what must stay.
                for i in 0..<1_000 { try tx.put(post, ["id": .string("gone\(i)"), "_deleted": true, "_ttl": .int(i % 300 + 1)]) }
                try tx.put(reading, ["sensor": "s", "day": "d", "seq": 1, "_deleted": true, "_ttl": 300])
                try tx.put(post, ["id": "later", "_deleted": true, "_ttl": 301])
                try tx.put(post, ["id": "noTTL", "_deleted": true])
                try tx.put(post, ["id": "live", "_deleted": false, "_ttl": 1])
                try tx.put(post, ["id": "plain"])
                try tx.put(reading, ["sensor": "s", "day": "d", "seq": 2, "_ttl": 1])
            }

            let result = try await store.purgeExpired(deltasBefore: 5_000, tombstonesExpiredBy: 300)
            #expect(result == PurgeResult(deltas: 1_200, tombstones: 1_001))

            let posts = try await store.deltaPage(post, DeltaQuery(since: 0, limit: 1_000))
            #expect(posts.items.map { $0["id"]! } == ["kept", "kept"])
            let readings = try await store.deltaPage(reading, DeltaQuery(since: 0))
            #expect(readings.items.count == 1)
            let left = try await store.pages(post, ItemQuery(limit: 1_000)).flatMap(\.items).map { $0["id"]! }
            #expect(left == ["later", "live", "noTTL", "plain"])
            #expect(try await store.page(reading, ItemQuery()).items.map { $0["seq"]! } == [2])

            #expect(try await store.purgeExpired(deltasBefore: 5_000, tombstonesExpiredBy: 300) == PurgeResult(deltas: 0, tombstones: 0))
        }
    }

    @Test("deltas of a model the schema no longer has expire too", arguments: StoreKind.allCases)
    func removedModel(kind: StoreKind) async throws {
        let place = try kind.place()
        try await place.withStore(post, reading) { store in
            try await store.write { tx in
                try tx.appendDelta(reading, item: ["sensor": "s", "day": "d", "seq": 1], changedAt: 10)
                try tx.appendDelta(post, item: ["id": "p"], changedAt: 10)
            }
        }
        try await place.withStore(post) { store throws in
            #expect(try await store.purgeExpired(deltasBefore: 11, tombstonesExpiredBy: 0) == PurgeResult(deltas: 2, tombstones: 0))
        }
    }

    @Test("mutations run while a purge is under way", arguments: StoreKind.allCases)
    func concurrentWrites(kind: StoreKind) async throws {
        try await kind.place().withStore(post) { store in
            try await store.write { tx in
                for i in 0..<3_000 { try tx.appendDelta(post, item: ["id": .string("old\(i)")], changedAt: i) }
            }
            let purged = try await withThrowingTaskGroup(of: Int.self) { group in
                group.addTask { try await store.purgeExpired(deltasBefore: 3_000, tombstonesExpiredBy: 0).deltas }
                for i in 0..<50 {
                    group.addTask {
                        try await store.change(post, [["id": .string("new\(i)")]], now: 10_000)
                        return 0
                    }
                }
                return try await group.reduce(0, +)
            }
            #expect(purged == 3_000)
            #expect(try await store.deltaPage(post, DeltaQuery(since: 0)).items.count == 50)
        }
    }

    /// SQLite only: it reads SQLite's query plans.
    @Test("expired tombstones are found through their own index, also after a table rebuild (SQLite)")
    func tombstoneIndex() async throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("app.sqlite")
        do {
            let store = try SQLiteItemStore(location: .file(path), schema: Fixtures.schema(post))
            try await store.put(post, [["id": "p1", "blogId": "b", "_deleted": true, "_ttl": 5]])
        }
        // A primary key change copies the table into a new one, which needs the index again.
        var rekeyed = post
        rekeyed.primaryKey = PrimaryKey(partitionField: "blogId", sortKeyFields: ["id"])
        _ = try SQLiteItemStore(location: .file(path), schema: Fixtures.schema(rekeyed, reading))

        let db = try DatabaseQueue(path: path)
        for (table, key) in [("Post", #""blogId", "id""#), ("Reading", #""sensor", "day", "seq""#)] {
            // The statement the purge runs for each batch.
            let sql = """
                DELETE FROM "\(table)" WHERE (\(key)) IN (
                    SELECT \(key) FROM "\(table)" WHERE "_deleted" = 1 AND "_ttl" <= 5 LIMIT 500)
                """
            let plan = try await db.read { db in
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql).map { $0["detail"] as String }
            }
            #expect(plan.contains("SEARCH \(table) USING INDEX deltasync_tombstones:\(table) (_ttl<?)"))
            #expect(!plan.contains { $0.hasPrefix("SCAN") })
        }
    }
}
