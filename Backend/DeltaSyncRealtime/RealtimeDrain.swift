import NIOConcurrencyHelpers
import ServiceLifecycle

/// Closes every open realtime connection with 1001 (going away) when the server shuts down,
/// before its HTTP server stops: a client told the server is going away reconnects later, one
/// whose socket just ends may report an error.
///
/// It runs as a service of its own, listed after the HTTP application in the same
/// `ServiceGroup`, because the group shuts services down in reverse order, one after the
/// other. Inside the application the WebSocket library closes every socket with 1000 the
/// moment the application's own graceful shutdown starts, so a connection's 1001 has to go out
/// before then.
///
/// ```swift
/// let group = ServiceGroup(configuration: .init(
///     services: [application, drain], gracefulShutdownSignals: [.sigterm], logger: logger))
/// ```
package final class RealtimeDrain: Service, Sendable {
    private struct State {
        var closers: [UInt64: @Sendable () -> Void] = [:]
        var next: UInt64 = 0
        var draining = false
    }

    /// How long the drain waits for the connections to send their close frames: each one
    /// waits up to a second for its peer, then closes its socket.
    static let closeLimit: Duration = .seconds(3)

    private let state = NIOLockedValueBox(State())
    private let emptied = AsyncStream.makeStream(of: Void.self)

    package init() {}

    /// Takes in a connection; `close` asks it to close with 1001. Called at once when the
    /// server is already draining.
    ///
    /// - Returns: what ``remove(_:)`` takes once the connection has sent its close frame.
    func add(close: @escaping @Sendable () -> Void) -> UInt64 {
        let (id, draining) = state.withLockedValue { state in
            defer { state.next += 1 }
            state.closers[state.next] = close
            return (state.next, state.draining)
        }
        if draining { close() }
        return id
    }

    /// The connection `id` has ended.
    func remove(_ id: UInt64) {
        let drained = state.withLockedValue { state in
            state.closers[id] = nil
            return state.draining && state.closers.isEmpty
        }
        if drained { emptied.continuation.finish() }
    }

    /// The number of open connections.
    package var count: Int { state.withLockedValue { $0.closers.count } }

    /// Waits for the group's graceful shutdown, then closes every connection and waits (up to
    /// ``closeLimit``) until each has sent its close frame. Cancellation ends it at once.
    package func run() async throws {
        do {
            try await gracefulShutdown()
        } catch {
            return
        }
        let closers = state.withLockedValue { state in
            state.draining = true
            return Array(state.closers.values)
        }
        if closers.isEmpty { emptied.continuation.finish() }
        for close in closers { close() }
        let emptied = emptied.stream
        await withTaskGroup(of: Void.self) { group in
            group.addTask { for await _ in emptied {} }
            group.addTask { try? await Task.sleep(for: Self.closeLimit) }
            await group.next()
            group.cancelAll()
        }
    }
}
