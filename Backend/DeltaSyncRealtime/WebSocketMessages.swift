import NIOCore
import NIOWebSocket

/// A WebSocket's inbound frames made into what a server acts on (RFC 6455): messages joined from
/// their fragments, pings, the peer's close, and violations with the close code they call for.
///
/// NIO's decoder reads the frames and refuses the malformed ones (a control frame fragmented or
/// over 125 bytes, a frame over the size limit); this is the layer above it, which
/// HummingbirdWebSocket's handler is for a connection served by a task. The realtime endpoint
/// serves its connections without a task each (``RealtimeSocket``), so it does this itself.
///
/// ```swift
/// var messages = WebSocketMessages(maxSize: 1 << 20)
/// switch messages.receive(frame) {
/// case .text(let text): handle(text)
/// case .violation(let code): close(code)
/// ...
/// }
/// ```
struct WebSocketMessages {
    /// What one frame amounts to.
    enum Event: Equatable {
        /// A whole text message, checked as UTF-8.
        case text(String)
        /// A whole binary message.
        case binary
        /// A ping: answer it with a pong carrying `payload`.
        case ping([UInt8])
        /// The peer's close frame, with its code when it has one.
        case close(code: UInt16?)
        /// The peer broke the protocol: close with `code`.
        case violation(WebSocketErrorCode)
        /// Nothing to act on yet (a fragment, a pong).
        case nothing
    }

    /// The largest message, fragments joined: over it, ``Event/violation(_:)`` with 1009.
    let maxSize: Int
    private var fragments: ByteBuffer?
    private var fragmentsAreText = false

    init(maxSize: Int) {
        self.maxSize = maxSize
    }

    mutating func receive(_ frame: WebSocketFrame) -> Event {
        // No extension is negotiated, so no reserved bit may be set.
        guard frame.reservedBits.isEmpty else { return .violation(.protocolError) }
        let data = frame.unmaskedData
        switch frame.opcode {
        case .ping:
            guard frame.fin else { return .violation(.protocolError) }
            return .ping(Array(data.readableBytesView))
        case .pong:
            return .nothing
        case .connectionClose:
            return close(data)
        case .text, .binary:
            guard fragments == nil else { return .violation(.protocolError) }
            guard data.readableBytes <= maxSize else { return .violation(.messageTooLarge) }
            if frame.fin { return message(data, text: frame.opcode == .text) }
            fragments = data
            fragmentsAreText = frame.opcode == .text
            return .nothing
        case .continuation:
            guard var joined = fragments else { return .violation(.protocolError) }
            guard joined.readableBytes + data.readableBytes <= maxSize else { return .violation(.messageTooLarge) }
            var data = data
            joined.writeBuffer(&data)
            guard frame.fin else {
                fragments = joined
                return .nothing
            }
            fragments = nil
            return message(joined, text: fragmentsAreText)
        default:
            return .violation(.protocolError)
        }
    }

    private func message(_ data: ByteBuffer, text: Bool) -> Event {
        guard text else { return .binary }
        // RFC 6455 8.1: text that is not UTF-8 fails the connection with 1007.
        guard let string = String(validating: data.readableBytesView, as: UTF8.self) else {
            return .violation(.dataInconsistentWithMessage)
        }
        return .text(string)
    }

    /// A close frame's body: nothing, or a two-byte code and a UTF-8 reason.
    private func close(_ data: ByteBuffer) -> Event {
        var data = data
        guard data.readableBytes > 0 else { return .close(code: nil) }
        guard let code = data.readInteger(as: UInt16.self) else { return .violation(.protocolError) }
        guard String(validating: data.readableBytesView, as: UTF8.self) != nil else { return .violation(.protocolError) }
        return .close(code: code)
    }
}
