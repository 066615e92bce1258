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
        var queue: [ByteBuffer] = []
        var writing = false
        var finished = false
    }

    /// Room left in front of a message for the largest WebSocket frame header, so the frame
    /// encoder writes the header into the message's own buffer: one buffer per frame on the
    /// socket instead of two.
    static let frameHeaderRoom = 10

    private let state = NIOLockedValueBox(State())
    private let channel: any Channel
    private let limit: Int
    private let overflowed: @Sendable () -> Void

    init(channel: any Channel, limit: Int, overflowed: @escaping @Sendable () -> Void) {
        self.channel = channel
        self.limit = limit
        self.overflowed = overflowed
    }

    /// An empty message buffer with room for the frame header in front.
    static func messageBuffer(capacity: Int) -> ByteBuffer {
        var buffer = ByteBufferAllocator().buffer(capacity: capacity + frameHeaderRoom)
        buffer.moveWriterIndex(forwardBy: frameHeaderRoom)
        buffer.moveReaderIndex(forwardBy: frameHeaderRoom)
        return buffer
    }

    /// Queues a message; `false` when the queue was full (the connection is being closed).
    @discardableResult
    func send(_ message: [UInt8]) -> Bool {
        var buffer = Self.messageBuffer(capacity: message.count)
        buffer.writeBytes(message)
        return send(contentsOf: [buffer])
    }

    /// Queues messages built with ``messageBuffer(capacity:)``, all or none; `false` when the
    /// queue had no room for them (the connection is being closed).
    @discardableResult
    func send(contentsOf messages: [ByteBuffer]) -> Bool {
        enum Outcome { case queued, startWriting, full, closed }
        let outcome: Outcome = state.withLockedValue { state in
            if state.finished { return .closed }
            guard state.queue.count + messages.count <= limit else { return .full }
            state.queue.append(contentsOf: messages)
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
        // Last message first, so `popLast` hands each buffer over as its only owner, which
        // the frame encoder needs to write the header in place.
        var batch: [ByteBuffer] = state.withLockedValue { state in
            defer { state.queue = [] }
            if state.queue.isEmpty || state.finished { state.writing = false }
            return state.finished ? [] : state.queue.reversed()
        }
        guard !batch.isEmpty else { return }
        while batch.count > 1, let message = batch.popLast() {
            channel.write(WebSocketFrame(fin: true, opcode: .text, data: message), promise: nil)
        }
        let written = channel.eventLoop.makePromise(of: Void.self)
        channel.writeAndFlush(WebSocketFrame(fin: true, opcode: .text, data: batch.removeLast()), promise: written)
        written.futureResult.whenComplete { result in
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
