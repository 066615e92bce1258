import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncStorage
import Testing

@Suite("Conflict log")
struct ConflictLogTests {
    func record(_ model: String, _ n: Int, resultVersion: Int? = nil) -> ConflictRecord {
        ConflictRecord(
            model: model, key: ["id": .string("\(model)-\(n)"), "n": .int(n)], mutation: "update\(model)",
            incomingVersion: n, storedVersion: n + 1, handler: "AUTOMERGE", outcome: "merged",
            resultVersion: resultVersion, at: 1_000 + n
        )
    }

    @Test("records come back whole, newest first, optionally of one model", arguments: StoreKind.allCases)
    func orderAndFilter(kind: StoreKind) async throws {
        try await kind.withStore(Fixtures.post) { store in
            let written = [record("Post", 1, resultVersion: 3), record("Comment", 2), record("Post", 3), record("Post", 4)]
            try await store.write { tx in for r in written { try tx.recordConflict(r) } }

            let all = try await store.read { tx in try tx.conflicts(model: nil, limit: 100) }
            #expect(all == written.reversed())
            let posts = try await store.read { tx in try tx.conflicts(model: "Post", limit: 2) }
            #expect(posts == [written[3], written[2]])
            #expect(try await store.read { tx in try tx.conflicts(model: "Nobody", limit: 10) } == [])
            #expect(try await store.read { tx in try tx.conflicts(model: nil, limit: 0) } == [])
        }
    }

    @Test("a conflict recorded in a rolled-back write is not kept", arguments: StoreKind.allCases)
    func rollback(kind: StoreKind) async throws {
        struct Abort: Error {}
        try await kind.withStore(Fixtures.post) { store throws in
            await #expect(throws: Abort.self) {
                try await store.write { tx in
                    try tx.recordConflict(record("Post", 1))
                    throw Abort()
                }
            }
            #expect(try await store.read { tx in try tx.conflicts(model: nil, limit: 10) } == [])
        }
    }

    @Test("only the latest 10,000 records are kept", arguments: StoreKind.allCases)
    func trimmed(kind: StoreKind) async throws {
        try await kind.withStore(Fixtures.post) { store in
            try await store.write { tx in
                for n in 0..<10_250 { try tx.recordConflict(record(n % 2 == 0 ? "Post" : "Comment", n)) }
            }
            let all = try await store.read { tx in try tx.conflicts(model: nil, limit: 20_000) }
            #expect(all.count == 10_000)
            #expect(all.first == record("Comment", 10_249))
            #expect(all.last == record("Post", 250))
            let comments = try await store.read { tx in try tx.conflicts(model: "Comment", limit: 20_000) }
            #expect(comments.count == 5_000)
        }
    }
}
