import NIOCore

/// Counts the `data` messages a subscriber connection receives, straight from the bytes read
/// off the socket, once every subscription of the connection is acknowledged.
///
/// The benchmark client shares the machine's two cores with the server it measures. Decoding
/// each event through NIO's WebSocket pipeline cost the client more CPU than the server spent
/// sending it; and one event loop reads its connections one after another, so that cost was
/// also added to the time of every connection read later in the same loop turn. Once counting,
/// a read is only scanned for frame boundaries and each frame's message type.
///
/// It sits first in the pipeline and hands bytes on to the WebSocket decoder until counting
/// starts, which happens between two frames: after the last `start_ack`, before any mutation.
final class EventCounter: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let received: @Sendable (Int, ContinuousClock.Instant) -> Void
    // Touched only on the channel's event loop. One struct, read and written once per read:
    // each access to a class's stored variable is checked for exclusivity at run time.
    nonisolated(unsafe) private var counting = false
    nonisolated(unsafe) private var scanner = FrameScanner()
    /// Events of the current read, and when the read began.
    nonisolated(unsafe) private var events = 0
    nonisolated(unsafe) private var readAt: ContinuousClock.Instant?

    init(received: @escaping @Sendable (Int, ContinuousClock.Instant) -> Void) {
        self.received = received
    }

    /// On the event loop, between two frames.
    func startCounting() { counting = true }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard counting else {
            context.fireChannelRead(data)
            return
        }
        if readAt == nil { readAt = .now }
        var scanner = self.scanner
        events += Self.unwrapInboundIn(data).withUnsafeReadableBytes { scanner.dataMessages(in: $0) }
        self.scanner = scanner
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if let readAt, events > 0 { received(events, readAt) }
        events = 0
        readAt = nil
        context.fireChannelReadComplete()
    }
}

/// Where a stream of server WebSocket frames is, across reads: single, unmasked text frames
/// (RFC 6455 §5.2) holding AppSync realtime messages.
struct FrameScanner {
    /// `{"type":"d` (a `data` message) or `{"type":"k` (a keep-alive): the payload byte that
    /// tells them apart.
    private static let typeByteOffset = 9

    /// Header bytes of the current frame read so far, and its header's whole length (2, 4 or
    /// 10, known from its second byte).
    private var headerRead = 0
    private var headerLength = 2
    private var payloadLength = 0
    /// Payload bytes of the current frame already read, and still to come.
    private var payloadRead = 0
    private var payloadLeft = 0

    /// Scans the next bytes of the stream; returns how many `data` messages they start.
    mutating func dataMessages(in bytes: UnsafeRawBufferPointer) -> Int {
        var found = 0
        var i = 0
        while i < bytes.count {
            guard payloadLeft > 0 else {
                let byte = bytes[i]
                i += 1
                switch headerRead {
                case 0:
                    precondition(byte == 0x81, "not a final text frame: \(byte)")
                case 1:
                    precondition(byte & 0x80 == 0, "a masked frame from the server")
                    let code = Int(byte & 0x7F)
                    headerLength = code == 126 ? 4 : (code == 127 ? 10 : 2)
                    payloadLength = headerLength == 2 ? code : 0
                default:
                    payloadLength = payloadLength << 8 | Int(byte)
                }
                headerRead += 1
                if headerRead == headerLength {
                    headerRead = 0
                    payloadRead = 0
                    payloadLeft = payloadLength
                }
                continue
            }
            let taken = min(payloadLeft, bytes.count - i)
            let typeByte = Self.typeByteOffset - payloadRead
            if typeByte >= 0, typeByte < taken, bytes[i + typeByte] == UInt8(ascii: "d") { found += 1 }
            payloadRead += taken
            payloadLeft -= taken
            i += taken
        }
        return found
    }
}
