import DeltaSyncLocalStore
import Foundation

/// Tells the sync engine whether the device has a usable network path, now and whenever it
/// changes: when the path returns, a sync waiting out its backoff tries again at once; when it
/// goes away, the running session ends at once instead of waiting for the realtime
/// connection's keep-alive timeout.
///
/// On Apple platforms the default, ``SystemNetworkPathMonitor``, follows `NWPathMonitor`. Tests
/// (and apps that know better, such as a VPN client) supply their own, like
/// ``SimulatedNetworkPath``:
///
/// ```swift
/// let path = SimulatedNetworkPath()
/// var configuration = DataStoreConfiguration(endpoint: SyncEndpoint(url: URL(string: "http://127.0.0.1:20002/graphql")!, apiKey: "da2-fakeApiId123456"))
/// configuration.networkMonitor = path
/// path.update(available: false)   // the device lost its signal
/// path.update(available: true)    // back: sync reconnects now
/// ```
public protocol NetworkPathMonitor: Sendable {
    /// Whether a path is available: the current state first, then each change, until the
    /// consumer stops iterating.
    func pathUpdates() -> AsyncStream<Bool>
}

/// A network path a test (or an app) switches by hand. Every stream it handed out hears each
/// ``update(available:)``; a new stream starts with the current state.
///
/// ```swift
/// let path = SimulatedNetworkPath(available: true)
/// path.update(available: false)
/// print(path.isAvailable)   // false
/// ```
public final class SimulatedNetworkPath: NetworkPathMonitor {
    private struct State {
        var available: Bool
        var listeners: [UUID: AsyncStream<Bool>.Continuation] = [:]
    }

    private let state: Locked<State>

    /// A path that starts `available`.
    public init(available: Bool = true) {
        state = Locked(State(available: available))
    }

    /// Whether the path is available now.
    public var isAvailable: Bool { state.withLock { $0.available } }

    /// Switches the path; listeners hear it only when it changes.
    public func update(available: Bool) {
        let listeners = state.withLock { state -> [AsyncStream<Bool>.Continuation] in
            guard state.available != available else { return [] }
            state.available = available
            return Array(state.listeners.values)
        }
        for listener in listeners { listener.yield(available) }
    }

    /// The current state, then every change.
    public func pathUpdates() -> AsyncStream<Bool> {
        let (stream, continuation) = AsyncStream.makeStream(of: Bool.self, bufferingPolicy: .bufferingNewest(8))
        let id = UUID()
        state.withLock { state in
            state.listeners[id] = continuation
            continuation.yield(state.available)
        }
        continuation.onTermination = { [weak self] _ in _ = self?.state.withLock { $0.listeners.removeValue(forKey: id) } }
        return stream
    }
}
