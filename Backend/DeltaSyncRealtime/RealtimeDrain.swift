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
package struct RealtimeDrain: Service, Sendable {
    /// How long the drain waits for the connections to send their close frames: each one
    /// waits up to a second for its peer, then closes its socket.
    static let closeLimit: Duration = .seconds(3)

    let connections: RealtimeConnections

    /// Waits for the group's graceful shutdown, then closes every connection and waits (up to
    /// ``closeLimit``) until each has sent its close frame, then closes what is left.
    /// Cancellation closes every socket at once.
    package func run() async throws {
        do {
            try await gracefulShutdown()
        } catch {
            // Cancelled: the server stops at once, and so do its sockets.
            connections.abort()
            return
        }
        await connections.drain(limit: Self.closeLimit)
    }
}
