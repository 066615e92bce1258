import DeltaSyncClient
import DeltaSyncCore
import Foundation
import GRDB
import Testing

@Suite("The outbox never sends what it cannot read")
struct OutboxIntegrityTests {
    @Test("rows damaged outside DeltaSync are reported and removed, never sent; the rest is sent")
    func damagedRows() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("deltasync-outbox-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("device.sqlite")
        try await SyncServer.run { server in
            do {
                let store = try server.device(location: .file(file))
                for n in 1...3 { try await store.save(Post(id: "p\(n)", blogID: "b1", title: "Post \(n)")) }
            }
            // Before this change, the first would have been sent as an empty create and the
            // second as an update.
            try await DatabaseQueue(path: file.path).write { db in
                try db.execute(sql: "UPDATE deltasync_outbox SET item = 'not json' WHERE modelID = 'p1'")
                try db.execute(sql: "UPDATE deltasync_outbox SET mutationType = 'upsert' WHERE modelID = 'p2'")
            }

            let errors = ErrorLog()
            let store = try server.device(location: .file(file), errors: errors)
            #expect(try await store.pendingMutations().map(\.modelID) == ["p3"])
            let log = EventLog(store)
            try await store.start()
            try await log.waitForEmptyOutbox(of: store)
            let dropped: EventLog.Match = { if case .outboxMutationDropped = $0 { true } else { false } }
            try await log.wait(for: "both damaged rows dropped", occurrences: 2, dropped)

            #expect(try await server.items("listPosts", selection: "id title") == [["id": "p3", "title": "Post 3"]])
            let expected: [DataStoreError] = [
                .unreadableOutboxMutation(sequence: 1, model: "Post", reason: "its item is not a JSON object"),
                .unreadableOutboxMutation(sequence: 2, model: "Post", reason: "unknown mutation type 'upsert'"),
            ]
            #expect(Set(errors.errors.map(\.description)) == Set(expected.map(\.description)))
            #expect(log.events.compactMap { if case .outboxMutationDropped(let error) = $0 { error } else { nil } } == expected)
            await store.stop()
        }
    }
}
