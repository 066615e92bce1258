import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncStorage
import Testing

@Suite("Checkpoints and snapshot files")
struct SnapshotTests {
    let post = Fixtures.post

    @Test("a checkpoint restores items and the sync log; the change clock does not go back", arguments: StoreKind.allCases)
    func checkpoint(kind: StoreKind) async throws {
        try await kind.withStore(post) { store in
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
            // Appending after a restore still works (the log's sequence is ahead of its rows).
            try await store.change(post, [["id": "p3"]], now: 0)
            #expect(try await store.read { tx in try tx.deltaCount(of: post) } == 2)
        }
    }

    @Test("snapshot files: SQLite exports one that restore(fromFile:) puts back; PostgreSQL refuses both", arguments: StoreKind.allCases)
    func snapshotFiles(kind: StoreKind) async throws {
        let dir = try TemporaryDirectory()
        let file = dir.file("snapshot")
        try await kind.withStore(post) { store in
            try await store.change(post, [["id": "p1", "title": "kept"]], now: 100)
            switch kind {
            case .sqlite:
                try await store.export(toFile: file)
                try await store.change(post, [["id": "p2"]], now: 0)
                try await store.restore(fromFile: file)
                #expect(try await store.page(post, ItemQuery()).items.map { $0["id"]! } == ["p1"])
                #expect(try await store.deltaPage(post, DeltaQuery(since: 0)).items.map { $0["id"]! } == ["p1"])
                #expect(try await store.stamp(0) == 102)
            case .postgres:
                let export = await #expect(throws: AppSyncError.self) { try await store.export(toFile: file) }
                #expect(export?.message.contains("pg_dump") == true)
                await #expect(throws: AppSyncError.self) { try await store.restore(fromFile: file) }
                #expect(try await store.get(post, ["id": "p1"])?["title"] == "kept")
            }
        }
    }
}
