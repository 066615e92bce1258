import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncStorage
import Testing

@Suite("Transactions")
struct TransactionTests {
    let post = Fixtures.post

    struct Abort: Error {}

    func stores() throws -> [(SQLiteItemStore, TemporaryDirectory?)] {
        let dir = try TemporaryDirectory()
        let schema = AmplifySchema(models: [post], enums: [], nonModels: [])
        return [
            (try SQLiteItemStore(location: .inMemory, schema: schema), nil),
            (try SQLiteItemStore(location: .file(dir.file("app.sqlite")), schema: schema), dir),
        ]
    }

    @Test("a write body that throws leaves nothing behind")
    func rollback() async throws {
        for (store, _) in try stores() {
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

    @Test("a write sees its own changes before it commits")
    func readYourWrites() async throws {
        for (store, _) in try stores() {
            let seen = try await store.write { tx in
                try tx.put(post, ["id": "p1", "title": "mine"])
                return try tx.query(post, ItemQuery()).items.count
            }
            #expect(seen == 1)
        }
    }

    @Test("concurrent read-modify-write transactions lose no update")
    func concurrentCounter() async throws {
        for (store, _) in try stores() {
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

    @Test("concurrent writers of different items all land")
    func concurrentInserts() async throws {
        for (store, _) in try stores() {
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
