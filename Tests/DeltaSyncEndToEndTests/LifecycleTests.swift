import DeltaSyncClient
import DeltaSyncCore
import DeltaSyncTesting
import Foundation
import Testing

/// What cuts sync's waits short on a phone: the network path returning or going, a local save,
/// the app coming back to the foreground. Each device waits a minute between attempts (its
/// backoff), so a test that passes within its 30-second waits proves the wait was cut short.
@Suite("App lifecycle: the network path, a save and resume() end sync's waits", .tags(.timing))
struct LifecycleTests {
    /// A minute between attempts, at least: longer than any wait below.
    static let longBackoff = RetryBackoff(base: .seconds(60), maximum: .seconds(300))

    @Test("an outage then recovery: the outbox drains when the path returns, not after the minute's backoff")
    func pathReturnDrainsTheOutbox() async throws {
        try await SyncServer.run { server in
            let link = try await NetworkLink(to: server.port)
            let path = SimulatedNetworkPath()
            let store = try server.device(through: link) { configuration in
                configuration.networkMonitor = path
                configuration.retryBackoff = Self.longBackoff
            }
            let log = EventLog(store)
            try await store.start()

            link.goOffline()
            path.update(available: false)
            try await log.wait(for: "offline", EventLog.offline)
            try await store.save(Post(id: "p1", blogID: "b1", title: "Written in a tunnel"))
            #expect(try await store.pendingMutations().count == 1)

            link.goOnline()
            let returned = ContinuousClock.now
            path.update(available: true)
            try await log.waitForEmptyOutbox(of: store)
            let drained = ContinuousClock.now - returned
            // Half the backoff: proof enough that the path's return ended the wait. How soon it
            // drains is a figure, not a pass mark (a loaded CI machine took 1.24 s once).
            #expect(drained < .seconds(30), "drained \(drained) after the path returned")
            #expect(try await server.items("listPosts", selection: "id title") == [["id": "p1", "title": "Written in a tunnel"]])
            await link.close()
        }
    }

    @Test("the path going away ends a connected session at once, without waiting for the keep-alive timeout")
    func pathLossEndsTheSession() async throws {
        try await SyncServer.run { server in
            let path = SimulatedNetworkPath()
            let store = try server.device { configuration in
                configuration.networkMonitor = path
                configuration.retryBackoff = Self.longBackoff
            }
            let log = EventLog(store)
            try await store.start()
            // The connection itself stays up, as a socket on a dead radio does until its timeout.
            path.update(available: false)
            try await log.wait(for: "offline", EventLog.offline)
            path.update(available: true)
            try await log.wait(for: "ready again", EventLog.ready, EventLog.offline, EventLog.ready)
        }
    }

    /// A started device without a path monitor whose network went away and came back while it
    /// waits out its minute of backoff.
    static func deviceBackFromAnOutage(_ server: SyncServer) async throws -> (DataStore, EventLog, NetworkLink) {
        let link = try await NetworkLink(to: server.port)
        let store = try server.device(through: link) { configuration in
            configuration.networkMonitor = nil
            configuration.retryBackoff = Self.longBackoff
        }
        let log = EventLog(store)
        try await store.start()
        link.goOffline()
        try await log.wait(for: "offline", EventLog.offline)
        link.goOnline()
        return (store, log, link)
    }

    @Test("a local save wakes an engine waiting out its backoff")
    func saveWakesTheEngine() async throws {
        try await SyncServer.run { server in
            let (store, log, link) = try await Self.deviceBackFromAnOutage(server)
            try await store.save(Post(id: "p1", blogID: "b1", title: "Saved while sync slept"))
            try await log.waitForEmptyOutbox(of: store)
            #expect(try await server.items("listPosts", selection: "id") == [["id": "p1"]])
            await link.close()
        }
    }

    @Test("resume() reconnects at once: from a backoff, and a connected session catches up with a delta sync")
    func resumeReconnects() async throws {
        try await SyncServer.run { server in
            let (store, log, link) = try await Self.deviceBackFromAnOutage(server)
            store.resume()
            try await log.wait(for: "ready after resume()", EventLog.ready, EventLog.offline, EventLog.ready)

            let readyBefore = log.occurrences(EventLog.ready)
            let deltaSyncs = log.occurrences(Self.postDeltaSync)
            store.resume()
            try await log.wait(for: "ready once more", occurrences: readyBefore + 1, EventLog.ready)
            #expect(log.occurrences(Self.postDeltaSync) == deltaSyncs + 1, "the session reconnected and caught up")
            #expect(log.occurrences(EventLog.offline) == 1, "a resume is no outage: nothing reported")
            await link.close()
        }
    }

    static let postDeltaSync: EventLog.Match = { event in
        if case .modelSynced(let synced) = event { synced.modelName == "Post" && synced.isDeltaSync } else { false }
    }
}
