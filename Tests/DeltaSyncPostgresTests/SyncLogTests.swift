import DeltaSyncCore
import DeltaSyncPostgres
import DeltaSyncSchema
import DeltaSyncStorage
import Foundation
import Logging
import PostgresNIO
import Testing

@Suite("PostgreSQL sync log")
struct SyncLogTests {
    let post = Fixtures.post
    let reading = Fixtures.reading

    struct Abort: Error {}

    @Test("deltas since a time, in pages, filtered, with the cursor shape (changedAt, seq)")
    func deltas() async throws {
        try await PostgresCluster.withStore([post, Fixtures.everything]) { store in
            try await store.change(post, (0..<10).map { ["id": .string("p\($0)"), "rank": .int($0)] }, now: 1_000)
            let all = try await store.deltaPages(post, DeltaQuery(since: 0, limit: 3))
            #expect(all.flatMap(\.items).map { $0["id"]! } == (0..<10).map { .string("p\($0)") })
            #expect(all.map(\.scanned) == [3, 3, 3, 1])
            #expect(all[0].lastEvaluated?.first == .int(1_002))
            let late = try await store.deltaPages(post, DeltaQuery(since: 1_006, limit: 2))
            #expect(late.flatMap(\.items).map { $0["id"]! } == ["p7", "p8", "p9"])
            let filtered = try await store.deltaPages(post, DeltaQuery(since: 0, filter: .field("rank", .ge(6)), limit: 4))
            #expect(filtered.map { $0.items.count } == [0, 2, 2])
            #expect(try await store.read { tx in try tx.deltaCount(of: post) } == 10)
            #expect(try await store.read { tx in try tx.latestDeltas(post, limit: 2) }.map { $0["id"]! } == ["p9", "p8"])
            await #expect(throws: AppSyncError.self) { try await store.deltaPage(post, DeltaQuery(since: 0, after: ["x"])) }

            // A delta reads back like the stored item: Float whole numbers as doubles.
            let e = Fixtures.everything
            try await store.change(e, [["id": "e1", "score": 2.0, "count": 3, "_version": 1]], now: 2_000)
            let delta = try #require(try await store.deltaPage(e, DeltaQuery(since: 0)).items.first)
            #expect(delta == (try await store.get(e, ["id": "e1"])))
            #expect(delta["score"] == .double(2))

            try await store.write { tx in try tx.removeSyncLog(of: "Post") }
            #expect(try await store.read { tx in try tx.deltaCount(of: post) } == 0)
            #expect(try await store.read { tx in try tx.deltaCount(of: e) } == 1)
        }
    }

    @Test("conflicts, newest first, by model")
    func conflicts() async throws {
        try await PostgresCluster.withStore([post]) { store in
            let records = (0..<4).map { i in
                ConflictRecord(
                    model: i % 2 == 0 ? "Post" : "Comment", key: ["id": .string("k\(i)")], mutation: "updatePost",
                    incomingVersion: i, storedVersion: i + 1, handler: "AUTOMERGE", outcome: "merged",
                    resultVersion: i % 2 == 0 ? i + 2 : nil, at: 100 + i)
            }
            try await store.write { tx in for record in records { try tx.recordConflict(record) } }
            #expect(try await store.read { tx in try tx.conflicts(model: nil, limit: 10) } == records.reversed())
            #expect(try await store.read { tx in try tx.conflicts(model: "Post", limit: 1) } == [records[2]])
        }
    }

    @Test("the change clock is monotonic, survives a rollback, and is shared by two stores on one schema")
    func changeClock() async throws {
        let schema = PostgresCluster.uniqueSchema()
        try await PostgresCluster.withStore([post], schema: schema) { first in
            #expect(try await first.stamp(1_000) == 1_000)
            #expect(try await first.stamp(1_000) == 1_001)
            #expect(try await first.stamp(500) == 1_002)
            await #expect(throws: Abort.self) {
                try await first.write { tx in
                    _ = try tx.stampChange(now: 9_000)
                    throw Abort()
                }
            }
            try await PostgresCluster.withStore([post], schema: schema) { second in
                #expect(try await second.stamp(0) == 1_003)
                // Two "processes" stamping at once never hand out the same time.
                let stamps = try await withThrowingTaskGroup(of: Int.self) { group in
                    for i in 0..<40 { group.addTask { try await (i % 2 == 0 ? first : second).stamp(42) } }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(stamps.sorted() == Array(1_004..<1_044))
                #expect(try await first.read { tx in try tx.changeClock() } == 1_043)
            }
        }
    }

    @Test("purge removes exactly the expired deltas and tombstones, in batches; another purge holding the lock makes it a no-op")
    func purge() async throws {
        try await PostgresCluster.withStore([post, reading]) { store in
            try await store.write { tx in
                for i in 0..<700 { try tx.appendDelta(post, item: ["id": .string("p\(i)")], changedAt: 1_000 + i) }
                for i in 0..<10 { try tx.appendDelta(reading, item: ["sensor": "s", "day": "d", "seq": .int(i)], changedAt: i) }
                for t in [5_000, 5_001] { try tx.appendDelta(post, item: ["id": "kept"], changedAt: t) }
                for i in 0..<600 { try tx.put(post, ["id": .string("gone\(i)"), "_deleted": true, "_ttl": .int(i % 300 + 1)]) }
                try tx.put(post, ["id": "later", "_deleted": true, "_ttl": 301])
                try tx.put(post, ["id": "noTTL", "_deleted": true])
                try tx.put(post, ["id": "live", "_deleted": false, "_ttl": 1])
            }

            // Another instance purging: this one does nothing.
            let settings = store.settings
            let connection = try await PostgresConnection.connect(
                configuration: PostgresConnection.Configuration(
                    host: settings.host, port: settings.port, username: settings.username, password: settings.password,
                    database: settings.database, tls: .disable),
                id: 99, logger: Logger(label: "test"))
            let key = Int(store.purgeLockKey)
            try await connection.query("SELECT pg_advisory_lock(\(key))", logger: Logger(label: "test"))
            #expect(try await store.purgeExpired(deltasBefore: 5_000, tombstonesExpiredBy: 300) == PurgeResult(deltas: 0, tombstones: 0))
            try await connection.query("SELECT pg_advisory_unlock(\(key))", logger: Logger(label: "test"))
            try await connection.close()

            let result = try await store.purgeExpired(deltasBefore: 5_000, tombstonesExpiredBy: 300)
            #expect(result == PurgeResult(deltas: 710, tombstones: 600))
            #expect(try await store.deltaPage(post, DeltaQuery(since: 0)).items.map { $0["id"]! } == ["kept", "kept"])
            let left = try await store.pages(post, ItemQuery(limit: 1_000)).flatMap(\.items).map { $0["id"]! }
            #expect(left == ["later", "live", "noTTL"])
            #expect(try await store.purgeExpired(deltasBefore: 5_000, tombstonesExpiredBy: 300) == PurgeResult(deltas: 0, tombstones: 0))
        }
    }
}
