import NIOConcurrencyHelpers

/// The messages waiting to be written to one connection, in order. Bounded: a subscriber
/// that stops reading fills it, and is then disconnected (``overflowed``) instead of making
/// the server hold its events without limit or slowing anyone else down.
final class RealtimeOutbox: Sendable {
    let messages: AsyncStream<[UInt8]>
    /// Yields once, when a message did not fit.
    let overflowed: AsyncStream<Void>
    private let continuation: AsyncStream<[UInt8]>.Continuation
    private let overflow: AsyncStream<Void>.Continuation

    init(limit: Int) {
        (messages, continuation) = AsyncStream.makeStream(of: [UInt8].self, bufferingPolicy: .bufferingOldest(limit))
        (overflowed, overflow) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingOldest(1))
    }

    /// Queues a message; `false` when the queue was full (the connection is being closed).
    @discardableResult
    func send(_ message: [UInt8]) -> Bool {
        switch continuation.yield(message) {
        case .enqueued: return true
        case .dropped:
            overflow.yield()
            overflow.finish()
            return false
        case .terminated: return false
        @unknown default: return false
        }
    }

    /// No more messages: the connection is closing.
    func finish() {
        continuation.finish()
        overflow.finish()
    }
}
