import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncStorage
import Testing

@Suite("Transactions")
struct TransactionTests {
    let post = Fixtures.post

    struct Abort: Error {}

    /// `body` on each layout of the kind: SQLite in memory (one connection) and in a file (a
    /// writer and a pool of readers); PostgreSQL on its schema.
    func eachLayout(_ kind: StoreKind, _ body: (any ItemStore) async throws -> Void) async throws {
        try await kind.place().withStore(post, body: body)
        if kind == .sqlite { try await kind.withStore(post, body: body) }
    }

    @Test("a write body that throws leaves nothing behind", arguments: StoreKind.allCases)
    func rollback(kind: StoreKind) async throws {
        try await eachLayout(kind) { store in
            try await store.put(post, [["id": "p0", "title": "before"]])
            await #expect(throws: Abort.self) {
                try await store.write { tx in
                    try tx.put(post, ["id": "p1", "title": "new"])
                    try tx.put(post, ["id": "p0", "title": "changed"])
                    try tx.remove(post, key: ["id": "p0"])
                    throw Abort()
                }
            }
            #expect(try await store.get(post, ["id": "p1"]) == nil)
            #expect(try await store.get(post, ["id": "p0"])?["title"] == "before")
        }
    }

    /// `get` reads one row without a transaction of its own: it finds items and tombstones,
    /// finds nothing for a key never stored, and never sees a write that has not committed.
    @Test("get reads one item, a tombstone, or nothing, and only what is committed", arguments: StoreKind.allCases)
    func getOutsideATransaction(kind: StoreKind) async throws {
        try await eachLayout(kind) { store in
            try await store.put(post, [["id": "p1", "title": "one"], ["id": "p2", "_deleted": true]])
            #expect(try await store.get(post, key: ["id": "p1"])?["title"] == "one")
            #expect(try await store.get(post, key: ["id": "p2"])?["_deleted"] == true)
            #expect(try await store.get(post, key: ["id": "p3"]) == nil)
            await #expect(throws: Abort.self) {
                try await store.write { tx in
                    try tx.put(post, ["id": "p3", "title": "never"])
                    throw Abort()
                }
            }
            #expect(try await store.get(post, key: ["id": "p3"]) == nil)
        }
    }

    @Test("count tells items from tombstones; removeAll empties the model, and not when rolled back", arguments: StoreKind.allCases)
    func countAndRemoveAll(kind: StoreKind) async throws {
        try await eachLayout(kind) { store in
            try await store.put(post, [["id": "p1"], ["id": "p2", "_deleted": true], ["id": "p3", "_deleted": false]])
            #expect(try await store.counts(post) == [3, 1])
            await #expect(throws: Abort.self) {
                try await store.write { tx in
                    try tx.put(post, ["id": "p4"])
                    _ = try tx.removeAll(post)
                    throw Abort()
                }
            }
            #expect(try await store.counts(post) == [3, 1])
            #expect(try await store.write { tx in try tx.removeAll(post) } == 3)
            #expect(try await store.counts(post) == [0, 0])
        }
    }

    @Test("a write sees its own changes before it commits", arguments: StoreKind.allCases)
    func readYourWrites(kind: StoreKind) async throws {
        try await eachLayout(kind) { store in
            let seen = try await store.write { tx in
                try tx.put(post, ["id": "p1", "title": "mine"])
                return try tx.query(post, ItemQuery()).items.count
            }
            #expect(seen == 1)
        }
    }

    @Test("concurrent read-modify-write transactions lose no update", arguments: StoreKind.allCases)
    func concurrentCounter(kind: StoreKind) async throws {
        try await eachLayout(kind) { store in
            try await store.put(post, [["id": "counter", "rank": 0]])
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<100 {
                    group.addTask {
                        try await store.write { tx in
                            let rank = try tx.get(post, key: ["id": "counter"])?["rank"]?.intValue ?? 0
                            try tx.put(post, ["id": "counter", "rank": .int(rank + 1)])
                        }
                    }
                    group.addTask { _ = try await store.get(post, ["id": "counter"]) }
                }
                try await group.waitForAll()
            }
            #expect(try await store.get(post, ["id": "counter"])?["rank"] == 100)
        }
    }

    @Test("concurrent writers of different items all land", arguments: StoreKind.allCases)
    func concurrentInserts(kind: StoreKind) async throws {
        try await eachLayout(kind) { store in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for i in 0..<200 {
                    group.addTask { try await store.put(post, [["id": .string("p\(i)")]]) }
                }
                try await group.waitForAll()
            }
            #expect(try await store.pages(post, ItemQuery(limit: 64)).flatMap(\.items).count == 200)
        }
    }
}
