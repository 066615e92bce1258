import DeltaSyncCore
import DeltaSyncPostgres
import DeltaSyncPostgresTestSupport
import DeltaSyncSchema
import DeltaSyncStorage
import Foundation
import Logging
import PostgresNIO
import Testing

/// What only the PostgreSQL store has: query plans, the advisory locks several server
/// processes share a schema under, connecting and its settings. The `ItemStore` contract runs
/// on it with every other contract test (`StoreKind.postgres`).
@Suite("PostgreSQL store")
struct PostgresStoreTests {
    let post = Fixtures.post

    @Test("EXPLAIN of an index query names its index, also one a migration added; a scan reads the primary key's")
    func explain() async throws {
        let schema = PostgresCluster.uniqueSchema()
        var old = post
        old.indexes = [old.indexes[0]]
        try await PostgresCluster.withStore([old], schema: schema) { store in
            try await store.put(old, [["id": "p1", "blogId": "b1", "createdAt": "2024-01-01"]])
        }
        try await PostgresCluster.withStore([post], schema: schema) { store in
            let plan = try await store.explain(
                post, ItemQuery(access: .index("byBlog", partition: "b1", sortKey: .ge(["2024-01-02"])), limit: 2),
                forbidSequentialScan: true)
            #expect(plan.contains("\"Post.byBlog\""), "\(plan)")
            let ranked = try await store.explain(
                post, ItemQuery(access: .index("byBlogRank", partition: "b1", sortKey: .beginsWith([1, "x"])), descending: true),
                forbidSequentialScan: true)
            #expect(ranked.contains("\"Post.byBlogRank\""), "\(ranked)")
            let scan = try await store.explain(post, ItemQuery(limit: 2, after: ["p1"]), forbidSequentialScan: true)
            #expect(scan.contains("\"Post.primaryKey\""), "\(scan)")
        }
    }

    @Test("a purge while another instance holds the purge lock does nothing; the next one purges")
    func purgeLock() async throws {
        try await PostgresCluster.withStore([post]) { store in
            try await store.write { tx in
                for i in 0..<10 { try tx.appendDelta(post, item: ["id": .string("p\(i)")], changedAt: i) }
                try tx.put(post, ["id": "gone", "_deleted": true, "_ttl": 1])
            }
            let settings = store.settings
            let logger = Logger(label: "test")
            let connection = try await PostgresConnection.connect(
                configuration: PostgresConnection.Configuration(
                    host: settings.host, port: settings.port, username: settings.username, password: settings.password,
                    database: settings.database, tls: .disable),
                id: 99, logger: logger)
            let key = Int(store.purgeLockKey)
            try await connection.query("SELECT pg_advisory_lock(\(key))", logger: logger)
            let whileLocked = try await store.purgeExpired(deltasBefore: 5_000, tombstonesExpiredBy: 300)
            try await connection.query("SELECT pg_advisory_unlock(\(key))", logger: logger)
            try await connection.close()
            #expect(whileLocked == PurgeResult(deltas: 0, tombstones: 0))
            #expect(try await store.purgeExpired(deltasBefore: 5_000, tombstonesExpiredBy: 300) == PurgeResult(deltas: 10, tombstones: 1))
        }
    }

    @Test("two stores on one schema, writing read-check-write increments at once, never lose an update")
    func concurrentWriters() async throws {
        let schema = PostgresCluster.uniqueSchema()
        try await PostgresCluster.withStore([post], schema: schema) { first in
            try await PostgresCluster.withStore([post], schema: schema) { second in
                try await first.put(post, [["id": "counter", "_version": 0]])
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for store in [first, second] {
                        for _ in 0..<50 {
                            group.addTask {
                                try await store.write { tx in
                                    let current = try tx.get(post, key: ["id": "counter"])?["_version"]?.intValue ?? -1000
                                    try tx.put(post, ["id": "counter", "_version": .int(current + 1)])
                                }
                            }
                        }
                    }
                    try await group.waitForAll()
                }
                #expect(try await second.get(post, ["id": "counter"])?["_version"] == 100)
            }
        }
    }

    @Test("two stores on one schema share the change clock: stamping at once, they never hand out one time twice")
    func sharedClock() async throws {
        let schema = PostgresCluster.uniqueSchema()
        try await PostgresCluster.withStore([post], schema: schema) { first in
            #expect(try await first.stamp(1_000) == 1_000)
            try await PostgresCluster.withStore([post], schema: schema) { second in
                #expect(try await second.stamp(0) == 1_001)
                let stamps = try await withThrowingTaskGroup(of: Int.self) { group in
                    for i in 0..<40 { group.addTask { try await (i % 2 == 0 ? first : second).stamp(42) } }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(stamps.sorted() == Array(1_002..<1_042))
                #expect(try await first.read { tx in try tx.changeClock() } == 1_041)
            }
        }
    }

    @Test("creates and updates of a model an older instance's migration left out of the functions still go in, with their deltas")
    func insertOfAModelTheFunctionDoesNotName() async throws {
        let schema = PostgresCluster.uniqueSchema()
        let reading = Fixtures.reading
        try await PostgresCluster.withStore([post, reading], schema: schema) { newer in
            // An instance that knows only Post starts later and writes the function for Post alone.
            try await PostgresCluster.withStore([post], schema: schema) { _ in }
            let key: Item = ["sensor": "s1", "day": "2024-05-01", "seq": 1]
            let created = try await newer.insert(reading, key: key, now: 1_000) { changedAt in
                key.merging(["value": 2.5, "_version": 1, "_lastChangedAt": .int(changedAt)]) { $1 }
            }
            #expect(created?["value"] == 2.5)
            #expect(try await newer.get(reading, key)?["value"] == 2.5)
            #expect(try await newer.insert(reading, key: key, now: 1_000) { _ in key } == nil, "the key is taken")
            // An update: the item's lock and read, then the upsert and its delta, by `EXECUTE` too.
            try await newer.write { tx in
                var item = try #require(try tx.get(reading, key: key))
                let changedAt = try tx.stampChange(now: 2_000)
                item["value"] = 3.5
                item["_version"] = 2
                item["_lastChangedAt"] = .int(changedAt)
                try tx.putLogged(reading, item, changedAt: changedAt)
            }
            #expect(try await newer.get(reading, key)?["value"] == 3.5)
            let page = try await newer.read { tx in try tx.deltas(reading, DeltaQuery(since: 0)) }
            #expect(page.items.map { $0["value"] } == [2.5, 3.5])
            #expect(page.items.map { $0["_version"] } == [1, 2])
        }
    }

    @Test("a schema whose name needs quoting: creates find its function, and another schema's store never sees them")
    func quotedSchemaName() async throws {
        let odd = "Tenant \"A\", " + PostgresCluster.uniqueSchema()
        try await PostgresCluster.withStore([post], schema: odd) { store in
            try await PostgresCluster.withStore([post]) { other in
                for (target, id) in [(store, "in-odd"), (other, "in-other")] {
                    let created = try await target.insert(post, key: ["id": .string(id)], now: 1_000) { t in
                        ["id": .string(id), "_version": 1, "_lastChangedAt": .int(t)]
                    }
                    #expect(created != nil)
                }
                #expect(try await store.get(post, ["id": "in-odd"]) != nil)
                #expect(try await store.get(post, ["id": "in-other"]) == nil)
                #expect(try await other.get(post, ["id": "in-odd"]) == nil)
                #expect(try await store.read { tx in try tx.deltaCount(of: post) } == 1)
            }
        }
    }

    @Test("a failing statement surfaces as an AppSyncError saying what failed, and the store keeps working")
    func postgresErrors() async throws {
        try await PostgresCluster.withStore([post]) { store in
            // A read transaction is READ ONLY: a write inside it is refused by PostgreSQL.
            let error = await #expect(throws: AppSyncError.self) {
                try await store.read { tx in try (tx as! any ItemWriteTransaction).put(post, ["id": "x"]) }
            }
            #expect(error?.errorType == .internalFailure)
            #expect(error?.message.contains("PostgreSQL could not write an item of Post") == true)
            #expect(error?.message.contains("read-only") == true)
            try await store.put(post, [["id": "ok"]])
            #expect(try await store.get(post, ["id": "ok"]) != nil)
        }
    }

    @Test("an unreachable database fails fast with a clear error naming host:port")
    func unreachable() async throws {
        var settings = try await PostgresCluster.settings()
        settings.host = "127.0.0.1"
        settings.port = 1
        settings.connectTimeout = 2
        let started = Date()
        let error = await #expect(throws: AppSyncError.self) {
            _ = try await PostgresItemStore.connect(settings: settings, schema: Fixtures.schema(post))
        }
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(error?.message.contains("Cannot connect to PostgreSQL at 127.0.0.1:1") == true, "\(String(describing: error))")
    }

    @Test("settings are read from a postgres:// URL, with clear errors")
    func settings() throws {
        let full = try PostgresStoreSettings(url: "postgresql://app:s%40cret@db.example:6543/appdb?sslmode=require&pool=3&schema=tenant_1")
        #expect(full == PostgresStoreSettings(
            host: "db.example", port: 6543, username: "app", password: "s@cret", database: "appdb", tls: .require, poolSize: 3,
            schema: "tenant_1"))
        let plain = try PostgresStoreSettings(url: "postgres://me@localhost/x")
        #expect(plain.port == 5432 && plain.tls == .prefer && plain.poolSize == 16 && plain.schema == "public" && plain.password == nil)
        let bad = [
            "mysql://me@h/x", "postgres://h/x", "postgres://me@h", "postgres://me@h/x?sslmode=maybe", "postgres://me@h/x?pool=0",
            "postgres://me@h/x?color=red", "not a url",
        ]
        for url in bad {
            let error = #expect(throws: PostgresStoreSettingsError.self, "\(url)") { try PostgresStoreSettings(url: url) }
            #expect(error?.message.contains("postgres://USER") == true)
        }
    }
}
