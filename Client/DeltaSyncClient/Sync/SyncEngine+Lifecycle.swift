import DeltaSyncCore
import DeltaSyncLocalStore

// What cuts the engine's waits short: a local change, the network path returning, the app
// coming back to the foreground (`DataStore.resume()`).
extension SyncEngine {
    /// Ends a session on purpose so that the next starts at once, without backoff and without
    /// reporting an error.
    struct SessionRestart: Error {}

    /// Waits `delay` between attempts, or less when ``wake()`` is called meanwhile.
    func backoff(_ delay: Duration) async {
        let (wakes, waker) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        state.withLock { $0.backoffWake = waker }
        defer {
            state.withLock { $0.backoffWake = nil }
            waker.finish()
        }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await Task.sleep(for: delay) }
            group.addTask { for await _ in wakes { return } }
            await group.next()
            group.cancelAll()
        }
    }

    /// Ends the backoff the engine is waiting out, if it is.
    func wake() {
        _ = state.withLock { $0.backoffWake?.yield() }
    }

    /// Ends the running session: `restart` reconnects at once; otherwise it fails as a lost
    /// network does (reported, then backoff).
    func endSession(_ reason: String, restart: Bool) {
        _ = state.withLock { $0.sessionEnd?.yield(restart ? nil : reason) }
    }

    /// The app is back (foreground, or told by the app the network is): sync starts if it is
    /// not running, a backoff ends now, and a connected session reconnects and catches up
    /// with a delta sync, since a connection that slept with the app may be dead without
    /// knowing it.
    func resume() {
        guard endpoint != nil else { return }
        ensureStarted()
        wake()
        endSession("resumed", restart: true)
    }

    /// Follows the network path while the engine runs: its return ends the backoff, its loss
    /// ends the session.
    func follow(_ monitor: any NetworkPathMonitor) async {
        for await available in monitor.pathUpdates() {
            let previous = state.withLock { state in
                defer { state.pathAvailable = available }
                return state.pathAvailable
            }
            guard previous != available else { continue }
            if available {
                wake()
            } else {
                endSession("the device's network path went away", restart: false)
            }
        }
    }

    /// Throws when the session must end: ``SessionRestart`` for a restart, a network error
    /// with the reason otherwise.
    static func end(when signal: AsyncStream<String?>) async throws {
        for await reason in signal {
            guard let reason else { throw SessionRestart() }
            throw DataStoreError.network(reason)
        }
        throw CancellationError()
    }

    /// A session's end signal: the reason it must fail with, or `nil` for a restart.
    func sessionEndSignal() -> AsyncStream<String?> {
        let (ends, end) = AsyncStream.makeStream(of: String?.self, bufferingPolicy: .bufferingNewest(1))
        state.withLock { $0.sessionEnd = end }
        return ends
    }
}
