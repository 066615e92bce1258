import DeltaSyncGraphQL
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOWebSocket

/// The messages waiting to be written to one connection, in order, written straight on the
/// connection's event loop: everything queued goes out with one flush, and no task sits
/// between an event and its socket write.
///
/// Messages are queued as finished WebSocket text frames, many to a buffer, and written below
/// the channel's frame encoder. Handing the encoder one frame at a time cost a pipeline pass and
/// two socket buffers per message (the encoder cannot put a header in front of a buffer the frame
/// still references); an event for ten subscriptions of one connection is now one buffer, one
/// pass, one `writev` entry.
///
/// Bounded: the next batch is written only when the previous one has been taken by the socket,
/// so a subscriber that stops reading fills the queue and is then disconnected (its
/// `overflowed` callback) instead of making the server hold its events without limit or
/// slowing anyone else down.
final class RealtimeOutbox: Sendable {
    private struct State {
        var queue: [ByteBuffer] = []
        /// Messages in `queue`; the limit counts messages, not buffers.
        var queued = 0
        var writing = false
        var finished = false
        /// A close frame is queued: nothing more is.
        var closing = false
        /// Called once the close frame is written.
        var afterClose: (@Sendable () -> Void)?
    }

    private let state = NIOLockedValueBox(State())
    private let channel: any Channel
    private let limit: Int
    private let overflowed: @Sendable () -> Void
    private let logger: Logger

    init(channel: any Channel, limit: Int, logger: Logger, overflowed: @escaping @Sendable () -> Void) {
        self.channel = channel
        self.limit = limit
        self.logger = logger
        self.overflowed = overflowed
    }

    /// The event loop writes happen on; delivering there saves a hop.
    var eventLoop: any EventLoop { channel.eventLoop }

    /// Appends a text frame whose payload is `head` then `body`, copied in one go.
    static func appendTextFrame(_ head: ArraySlice<UInt8>, _ body: [UInt8] = [], to frames: inout ByteBuffer) {
        appendFrame(opcode: 0x1, head, body, to: &frames)
    }

    /// Appends a frame whose payload is `head` then `body`. Server frames are final and
    /// unmasked: the FIN bit and the opcode, then the length in 1, 3 or 9 bytes (RFC 6455 §5.2).
    static func appendFrame(opcode: UInt8, _ head: ArraySlice<UInt8>, _ body: [UInt8] = [], to frames: inout ByteBuffer) {
        let length = head.count + body.count
        let headerLength = length < 126 ? 2 : (length <= 0xFFFF ? 4 : 10)
        frames.writeWithUnsafeMutableBytes(minimumWritableBytes: headerLength + length) { out in
            out[0] = 0x80 | opcode
            switch headerLength {
            case 2:
                out[1] = UInt8(length)
            case 4:
                out[1] = 126
                out.storeBytes(of: UInt16(length).bigEndian, toByteOffset: 2, as: UInt16.self)
            default:
                out[1] = 127
                out.storeBytes(of: UInt64(length).bigEndian, toByteOffset: 2, as: UInt64.self)
            }
            head.withUnsafeBytes { bytes in
                UnsafeMutableRawBufferPointer(rebasing: out[headerLength...]).copyMemory(from: bytes)
            }
            body.withUnsafeBytes { bytes in
                UnsafeMutableRawBufferPointer(rebasing: out[(headerLength + head.count)...]).copyMemory(from: bytes)
            }
            return headerLength + length
        }
    }

    /// Queues a pong answering a ping with `payload` (at most 125 bytes, as every control
    /// frame), behind the messages already queued; not counted against the limit.
    func sendPong(_ payload: [UInt8]) {
        var frame = ByteBufferAllocator().buffer(capacity: payload.count + 2)
        Self.appendFrame(opcode: 0xA, payload[...], to: &frame)
        _ = enqueue(frame, messages: 0, last: false)
    }

    /// Queues a close frame behind the messages already queued, and nothing after it.
    ///
    /// - Parameters:
    ///   - reason: cut to the 123 bytes a control frame leaves it.
    ///   - written: called on the event loop once the frame is written (or the channel failed).
    func close(code: UInt16, reason: String, written: @escaping @Sendable () -> Void = {}) {
        var payload = [UInt8(code >> 8), UInt8(code & 0xFF)]
        // Whole characters only: the reason must stay valid UTF-8.
        for scalar in reason.unicodeScalars {
            let bytes = Array(String(scalar).utf8)
            guard payload.count + bytes.count <= 125 else { break }
            payload += bytes
        }
        var frame = ByteBufferAllocator().buffer(capacity: payload.count + 2)
        Self.appendFrame(opcode: 0x8, payload[...], to: &frame)
        state.withLockedValue { $0.afterClose = written }
        if !enqueue(frame, messages: 0, last: true) { channel.eventLoop.execute(written) }
    }

    /// Queues a message; `false` when the queue was full (the connection is being closed).
    @discardableResult
    func send(_ message: [UInt8]) -> Bool {
        var frames = ByteBufferAllocator().buffer(capacity: message.count + 10)
        Self.appendTextFrame(message[...], to: &frames)
        return send(frames: frames, messages: 1)
    }

    /// Queues `messages` text frames built with ``appendTextFrame(_:_:to:)``, all or
    /// none; `false` when the queue had no room for them (the connection is being closed).
    @discardableResult
    func send(frames: ByteBuffer, messages: Int) -> Bool {
        enqueue(frames, messages: messages, last: false)
    }

    /// Queues `frames`; `last` closes the queue behind them (a close frame). Over the limit,
    /// reports the overflow and queues nothing.
    private func enqueue(_ frames: ByteBuffer, messages: Int, last: Bool) -> Bool {
        enum Outcome { case queued, startWriting, full, closed }
        let outcome: Outcome = state.withLockedValue { state in
            if state.finished || state.closing { return .closed }
            guard state.queued + messages <= limit else { return .full }
            state.queue.append(frames)
            state.queued += messages
            state.closing = last
            if state.writing { return .queued }
            state.writing = true
            return .startWriting
        }
        switch outcome {
        case .queued: return true
        case .startWriting:
            if channel.eventLoop.inEventLoop {
                writeQueued()
            } else {
                channel.eventLoop.execute { self.writeQueued() }
            }
            return true
        case .full:
            overflowed()
            return false
        case .closed: return false
        }
    }

    /// On the event loop: writes what is queued, and again once the socket has taken it.
    private func writeQueued() {
        let (batch, closes): ([ByteBuffer], Bool) = state.withLockedValue { state in
            defer {
                state.queue = []
                state.queued = 0
            }
            if state.queue.isEmpty || state.finished { state.writing = false }
            return state.finished ? ([], false) : (state.queue, state.closing)
        }
        guard !batch.isEmpty else { return }
        // Below the encoder: the frames are already encoded.
        let encoder: ChannelHandlerContext
        do {
            encoder = try channel.pipeline.syncOperations.context(handlerType: WebSocketFrameEncoder.self)
        } catch {
            // Only a pipeline that is being torn down, or a change in how the WebSocket
            // upgrade builds it, gets here: say so, and end the connection rather than leave a
            // subscriber waiting for events that can never be written.
            logger.error(
                "realtime messages dropped: no WebSocket frame encoder in the connection's pipeline; closing it",
                metadata: ["buffers": "\(batch.count)", "error": "\(error)"])
            finish()
            channel.close(promise: nil)
            return
        }
        let written = channel.eventLoop.makePromise(of: Void.self)
        for frames in batch.dropLast() { encoder.write(NIOAny(frames), promise: nil) }
        encoder.writeAndFlush(NIOAny(batch[batch.count - 1]), promise: written)
        written.futureResult.whenComplete { result in
            if closes {
                let afterClose = self.state.withLockedValue { state in
                    defer { state.afterClose = nil }
                    return state.afterClose
                }
                self.finish()
                afterClose?()
                return
            }
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
            state.queued = 0
        }
    }
}
