import DeltaSyncCore
import DeltaSyncPostgres
import DeltaSyncSchema
import DeltaSyncStorage
import Foundation
import Testing

@Suite("PostgreSQL store lifecycle")
struct StoreLifecycleTests {
    let post = Fixtures.post

    @Test("a checkpoint restores items and the sync log; the change clock does not go back")
    func checkpoint() async throws {
        try await PostgresCluster.withStore([post]) { store in
            try await store.change(post, [["id": "p1", "title": "before"]], now: 100)
            try await store.write { tx in
                try tx.recordConflict(ConflictRecord(
                    model: "Post", key: ["id": "p1"], mutation: "updatePost", incomingVersion: 1, storedVersion: 2,
                    handler: "AUTOMERGE", outcome: "merged", resultVersion: 3, at: 5))
            }
            let saved = try await store.checkpoint()
            try await store.change(post, [["id": "p1", "title": "after"], ["id": "p2"]], now: 200)
            try await store.write { tx in try tx.removeSyncLog(of: nil) }

            try await store.restore(saved)
            #expect(try await store.get(post, ["id": "p1"])?["title"] == "before")
            #expect(try await store.get(post, ["id": "p2"]) == nil)
            #expect(try await store.deltaPage(post, DeltaQuery(since: 0)).items.map { $0["title"] } == ["before"])
            #expect(try await store.read { tx in try tx.conflicts(model: nil, limit: 5) }.count == 1)
            #expect(try await store.stamp(0) == 202)
            // Appending after a restore still works (the delta sequence is ahead of the rows).
            try await store.change(post, [["id": "p3"]], now: 0)
            #expect(try await store.read { tx in try tx.deltaCount(of: post) } == 2)

            await #expect(throws: AppSyncError.self) { try await store.export(toFile: "/tmp/x") }
            await #expect(throws: AppSyncError.self) { try await store.restore(fromFile: "/tmp/x") }
        }
    }

    @Test("reconnecting with a schema that adds a model, a field and an index keeps the data and serves the index")
    func migration() async throws {
        let schema = PostgresCluster.uniqueSchema()
        let old = Fixtures.model("Note", [Fixtures.field("id", .id), Fixtures.field("title", .string)])
        try await PostgresCluster.withStore([old], schema: schema) { store in
            try await store.change(old, [["id": "n1", "title": "kept"]], now: 10)
        }
        var new = old
        new.fields.append(Fixtures.field("rank", .int))
        new.indexes = [Index(name: "byTitle", partitionField: "title", sortKeyFields: ["rank"])]
        try await PostgresCluster.withStore([new, post], schema: schema) { store in
            #expect(try await store.get(new, ["id": "n1"]) == ["id": "n1", "title": "kept", "_version": 1, "_lastChangedAt": 10])
            try await store.change(new, [["id": "n2", "title": "kept", "rank": 2]], now: 0)
            #expect(try await store.stamp(0) == 12)
            let page = try await store.page(new, ItemQuery(access: .index("byTitle", partition: "kept", sortKey: .ge([1]))))
            #expect(page.items.map { $0["id"]! } == ["n2"])
            try await store.put(post, [["id": "p1"]])
            #expect(try await store.deltaPage(new, DeltaQuery(since: 0)).items.count == 2)
            let plan = try await store.explain(new, ItemQuery(access: .index("byTitle", partition: "kept", sortKey: nil)), forbidSequentialScan: true)
            #expect(plan.contains("\"Note.byTitle\""))
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
