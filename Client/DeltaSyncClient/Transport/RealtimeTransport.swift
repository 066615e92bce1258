import Foundation

/// A WebSocket for AppSync's realtime protocol (`graphql-ws` subprotocol, text frames): what
/// ``RealtimeSession`` needs of a network stack. Two stacks implement it: the system's
/// (``URLSessionRealtimeTransport``, the default on Apple platforms) and SwiftNIO's
/// (``NIORealtimeTransport``, the default on Linux, whose Foundation has no WebSocket).
package protocol RealtimeTransport: Sendable {
    /// Opens a WebSocket to `url` and runs `session` with its incoming text frames and a way
    /// to send; returns or throws when `session` does, closing the socket.
    ///
    /// The incoming frames end when the backend closes the connection, and throw when it is
    /// lost. Opening may not heed cancellation until it completes: callers that must not
    /// hang run it in a task of its own (``RealtimeSession`` does).
    func run(
        _ url: URL, session: @escaping @Sendable (_ incoming: AsyncThrowingStream<String, any Error>, _ send: @escaping RealtimeSend) async throws -> Void
    ) async throws
}

/// Sends one text frame.
package typealias RealtimeSend = @Sendable (String) async throws -> Void

extension RealtimeTransport {
    /// The largest frame a sync client takes (a subscription event with a large item).
    static var maximumFrameBytes: Int { 1 << 22 }
}
