import NIOConcurrencyHelpers
import NIOCore
import NIOWebSocket

/// The messages waiting to be written to one connection, in order, written straight on the
/// connection's event loop: everything queued goes out with one flush, and no task sits
/// between an event and its socket write.
///
/// Bounded: the next batch is written only when the previous one has been taken by the socket,
/// so a subscriber that stops reading fills the queue and is then disconnected (its
/// `overflowed` callback) instead of making the server hold its events without limit or
/// slowing anyone else down.
final class RealtimeOutbox: Sendable {
    private struct State {
        var queue: [[UInt8]] = []
        var writing = false
        var finished = false
    }

    private let state = NIOLockedValueBox(State())
    private let channel: any Channel
    private let limit: Int
    private let overflowed: @Sendable () -> Void

    init(channel: any Channel, limit: Int, overflowed: @escaping @Sendable () -> Void) {
        self.channel = channel
        self.limit = limit
        self.overflowed = overflowed
    }

    /// Queues a message; `false` when the queue was full (the connection is being closed).
    @discardableResult
    func send(_ message: [UInt8]) -> Bool {
        enum Outcome { case queued, startWriting, full, closed }
        let outcome: Outcome = state.withLockedValue { state in
            if state.finished { return .closed }
            guard state.queue.count < limit else { return .full }
            state.queue.append(message)
            if state.writing { return .queued }
            state.writing = true
            return .startWriting
        }
        switch outcome {
        case .queued: return true
        case .startWriting:
            channel.eventLoop.execute { self.writeQueued() }
            return true
        case .full:
            overflowed()
            return false
        case .closed: return false
        }
    }

    /// On the event loop: writes what is queued, and again once the socket has taken it.
    private func writeQueued() {
        let batch: [[UInt8]] = state.withLockedValue { state in
            defer { state.queue = [] }
            if state.queue.isEmpty || state.finished { state.writing = false }
            return state.finished ? [] : state.queue
        }
        guard !batch.isEmpty else { return }
        var written: EventLoopFuture<Void>?
        for message in batch {
            written = channel.write(WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(bytes: message)))
        }
        channel.flush()
        written?.whenComplete { result in
            if case .failure = result {
                self.finish()
                return
            }
            self.writeQueued()
        }
    }

    /// No more messages: the connection is closing.
    func finish() {
        state.withLockedValue { state in
            state.finished = true
            state.queue = []
        }
    }
}
