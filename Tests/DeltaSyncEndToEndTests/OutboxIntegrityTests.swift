import DeltaSyncClient
import DeltaSyncCore
import DeltaSyncTesting
import Foundation
import GRDB
import NIOConcurrencyHelpers
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

/// Found by a simulation under a Lambda conflict handler: a session that ended while its
/// mutation was on the way dropped the answer, and the next session sent the mutation again,
/// which the backend took for a second conflict.
@Suite("A mutation on its way when its session ends")
struct InFlightMutationTests {
    /// Holds every conflict handler call until opened; counts them.
    final class Gate: Sendable {
        private struct State {
            var calls = 0
            var open = false
            var held: [CheckedContinuation<Void, Never>] = []
            var firstCallWaiter: CheckedContinuation<Void, Never>?
        }

        private let state = NIOLockedValueBox(State())
        var calls: Int { state.withLockedValue { $0.calls } }

        /// A call of the handler: counted, and held until ``open()``.
        func pass() async {
            await withCheckedContinuation { continuation in
                let (go, first) = state.withLockedValue { state in
                    state.calls += 1
                    if !state.open { state.held.append(continuation) }
                    defer { state.firstCallWaiter = nil }
                    return (state.open, state.firstCallWaiter)
                }
                first?.resume()
                if go { continuation.resume() }
            }
        }

        /// Returns once the handler was called.
        func firstCall() async {
            await withCheckedContinuation { continuation in
                let called = state.withLockedValue { state in
                    if state.calls == 0 { state.firstCallWaiter = continuation }
                    return state.calls > 0
                }
                if called { continuation.resume() }
            }
        }

        func open() {
            let held = state.withLockedValue { state in
                state.open = true
                defer { state.held = [] }
                return state.held
            }
            for continuation in held { continuation.resume() }
        }
    }

    @Test("is seen through: the backend gets it once, and the device keeps the backend's answer")
    func seenThrough() async throws {
        let gate = Gate()
        try await SyncServer.run({
            $0.conflictHandler = .lambda
            $0.lambdaConflictHandler = { request in
                await gate.pass()
                return .resolve(request.newItem.objectValue ?? [:])
            }
        }) { server in
            let link = try await NetworkLink(to: server.port)
            let device = try server.device(through: link)
            let other = try server.device()
            let log = EventLog(device)
            let otherLog = EventLog(other)
            try await device.save(Post(id: "p1", blogID: "b1", title: "Draft"))
            try await log.waitForEmptyOutbox(of: device)
            try await other.start()
            try await otherLog.wait(for: "the draft", EventLog.received("p1"))

            // The device edits the draft offline while the other moves it on: a conflict.
            link.goOffline()
            var late = try #require(try await device.query(Post.self, byId: "p1"))
            late.title = "Late"
            try await device.save(late)
            var moved = try #require(try await other.query(Post.self, byId: "p1"))
            moved.rating = 4
            try await other.save(moved)
            try await otherLog.waitForEmptyOutbox(of: other)
            link.goOnline()

            // The late edit reaches the handler; its session ends while the handler decides.
            await gate.firstCall()
            device.resume()
            gate.open()
            try await log.waitForEmptyOutbox(of: device)
            let stored = try #require(try await server.items("listPosts", selection: "id title _version").first)
            #expect(stored["title"] == "Late")
            #expect(stored["_version"] == 3, "the late edit was resolved once, not twice")
            #expect(gate.calls == 1)
        }
    }
}
