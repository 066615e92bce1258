import ServiceLifecycle

/// A server started with ``DeltaSyncServer/start()``.
public struct RunningServer: Sendable {
    public let host: String
    public let port: Int
    public let apiKey: String
    /// Whether the server serves `https` and `wss` only (``ServerConfiguration/tls`` is set and
    /// ``ServerConfiguration/plainBesideTLS`` is not): the URLs below use those schemes.
    public let usesTLS: Bool
    /// What the start found when the store was last served with the other conflict detection
    /// mode (``DeltaSyncServer/recordServedShape()``); `nil` otherwise.
    public let servedShapeChange: ServedShapeChange?
    let group: ServiceGroup
    let task: Task<Void, any Error>

    /// `http://host:port/graphql`, or `https://` with TLS.
    public var graphQLURL: String { "\(usesTLS ? "https" : "http")://\(host):\(port)/graphql" }

    /// The realtime WebSocket: `ws://host:port/graphql`, or `wss://` with TLS.
    public var realtimeURL: String { "\(usesTLS ? "wss" : "ws")://\(host):\(port)/graphql" }

    /// Stops accepting connections, lets requests in flight finish, and waits for the server.
    public func stop() async {
        await group.triggerGracefulShutdown()
        _ = try? await task.value
    }
}
