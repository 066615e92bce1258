import DeltaSyncCore
import DeltaSyncPostgres
import DeltaSyncSchema
import DeltaSyncStorage
import Testing

@Suite("PostgreSQL items")
struct ItemStoreTests {
    let model = Fixtures.everything

    struct Abort: Error {}

    @Test("every field type reads back as the kind it was written; nulls and unknown keys are left out")
    func roundTrip() async throws {
        try await PostgresCluster.withStore([model]) { store in
            let item: Item = [
                "id": "e1", "title": "Hello, 世界 😀 'quoted' \"too\"", "count": -42, "score": 2.5, "done": true,
                "day": "2024-02-29", "time": "12:30:00.000", "at": "2024-02-29T12:30:00.000Z",
                "stamp": 1_700_000_000, "email": "a@b.c", "meta": "{\"b\":[1,2],\"a\":null}",
                "phone": "+1 555 0100", "url": "https://example.com/x", "ip": "::1", "status": "ACTIVE",
                "tags": ["a", "", "b"], "counts": [1, 2, 3],
                "location": ["city": "Paris", "zip": 75001],
                "stops": [["city": "Lyon"], ["city": "Nice", "zip": 6000]],
                "ownerId": "o1",
                "_version": 3, "_deleted": false, "_lastChangedAt": 1_700_000_000_123, "_ttl": 1_700_086_400,
                "__typename": "Everything",
            ]
            try await store.put(model, [item])
            #expect(try await store.get(model, ["id": "e1"]) == item)

            try await store.put(model, [["id": "e2", "title": nil, "done": false, "nope": 1, "owner": ["id": "o1"]]])
            #expect(try await store.get(model, ["id": "e2"]) == ["id": "e2", "done": false, "_version": 1])

            try await store.put(model, [["id": "e3", "count": 7.0, "score": 3, "counts": [1, 2.5], "meta": ["b": 1, "a": [true]]]])
            let e3 = try #require(try await store.get(model, ["id": "e3"]))
            #expect(e3["count"] == .int(7))
            #expect(e3["score"] == .double(3))
            #expect(e3["counts"] == [1, 2.5])
            #expect(e3["meta"] == .string("{\"a\":[true],\"b\":1}"))
            #expect(try await store.get(model, ["id": "missing"]) == nil)
        }
    }

    @Test("values that do not fit their field, and items without their key, are refused naming the field")
    func refused() async throws {
        try await PostgresCluster.withStore([model]) { store in
            let cases: [(String, JSONValue)] = [
                ("count", "12"), ("count", 1.5), ("score", "x"), ("done", 1), ("title", 5), ("tags", "a"),
                ("location", ["a"]), ("status", true), ("title", "nul\u{0}here"),
            ]
            for (field, value) in cases {
                let error = await #expect(throws: AppSyncError.self) { try await store.put(model, [["id": "e1", field: value]]) }
                #expect(error?.errorType == .validation)
                #expect(error?.message.contains("'\(field)'") == true)
            }
            let error = await #expect(throws: AppSyncError.self) { try await store.put(model, [["title": "no id"]]) }
            #expect(error?.message.contains("'id'") == true)
            await #expect(throws: AppSyncError.self) { try await store.get(Fixtures.post, ["id": "1"]) }
            let counts1 = try await store.counts(model)
        #expect(counts1 == [0, 0])
        }
    }

    @Test("composite keys: get, replace, remove, and a primary key query in sort key order")
    func compositeKeys() async throws {
        let model = Fixtures.reading
        try await PostgresCluster.withStore([model]) { store in
            try await store.put(model, [
                ["sensor": "s1", "day": "2024-01-02", "seq": 1, "value": 3.5],
                ["sensor": "s1", "day": "2024-01-01", "seq": 10, "value": 1.5],
                ["sensor": "s1", "day": "2024-01-01", "seq": 2, "value": 2.5],
                ["sensor": "s2", "day": "2024-01-01", "seq": 1],
            ])
            let key: Item = ["sensor": "s1", "day": "2024-01-01", "seq": 2]
            #expect(try await store.get(model, key)?["value"] == 2.5)
            try await store.put(model, [key.merging(["value": 9.5]) { $1 }])
            #expect(try await store.get(model, key)?["value"] == 9.5)

            let page = try await store.page(model, ItemQuery(access: .index(nil, partition: "s1", sortKey: .eq(["2024-01-01"]))))
            #expect(page.items.map { $0["seq"] } == [2, 10])
            let all = try await store.page(model, ItemQuery(access: .index(nil, partition: "s1", sortKey: nil), descending: true))
            #expect(all.items.map { $0["day"]! } == ["2024-01-02", "2024-01-01", "2024-01-01"])

            let removed = try await store.write { tx in try tx.remove(model, key: key) }
            let removedAgain = try await store.write { tx in try tx.remove(model, key: key) }
            #expect(removed && !removedAgain)
            #expect(try await store.get(model, key) == nil)
            let error = await #expect(throws: AppSyncError.self) { try await store.get(model, ["sensor": "s1", "day": "2024-01-01"]) }
            #expect(error?.message.contains("'seq'") == true)
        }
    }

    @Test("count, removeAll, and a throwing body leaves nothing behind")
    func countAndRollback() async throws {
        let post = Fixtures.post
        try await PostgresCluster.withStore([post]) { store in
            try await store.put(post, [["id": "p1"], ["id": "p2", "_deleted": true], ["id": "p3", "_deleted": false]])
            let counts2 = try await store.counts(post)
            #expect(counts2 == [3, 1])
            await #expect(throws: Abort.self) {
                try await store.write { tx in
                    try tx.put(post, ["id": "p4"])
                    _ = try tx.removeAll(post)
                    throw Abort()
                }
            }
            let counts3 = try await store.counts(post)
            #expect(counts3 == [3, 1])
            #expect(try await store.write { tx in try tx.removeAll(post) } == 3)
            let counts4 = try await store.counts(post)
        #expect(counts4 == [0, 0])
        }
    }

    @Test("a failing statement surfaces as an AppSyncError saying what failed, and the store keeps working")
    func postgresErrors() async throws {
        let post = Fixtures.post
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
}
