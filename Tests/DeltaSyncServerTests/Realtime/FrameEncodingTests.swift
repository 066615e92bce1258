@testable import DeltaSyncGraphQL
@testable import DeltaSyncRealtime
@testable import DeltaSyncServer
import NIOCore
import NIOEmbedded
import NIOWebSocket
import Testing

/// Events are framed by the server itself (many to a buffer); NIO's own decoder must read
/// them back, whatever length form the payload needs.
struct FrameEncodingTests {
    @Test("text frames of every length form decode with NIOWebSocket", arguments: [0, 5, 125, 126, 300, 65_535, 65_536, 250_000])
    func framesDecode(length: Int) throws {
        let head = Array("{\"type\":\"data\",\"payload\":".utf8)
        let body = [UInt8](repeating: UInt8(ascii: "x"), count: max(0, length - head.count - 1))
        let tail: [UInt8] = [UInt8(ascii: "}")]
        let payload = Array((head + body + tail).prefix(length))
        var frames = ByteBufferAllocator().buffer(capacity: 0)
        // Two frames in one buffer, as a connection's batch is written; the first from a slice
        // of a longer array, as message prefixes are kept.
        let prefixes = Array("{\"type\":\"data\",\"id\":\"1\"}".utf8) + payload.prefix(head.count)
        RealtimeOutbox.appendTextFrame(prefixes[(prefixes.count - min(head.count, payload.count))...], Array(payload.dropFirst(head.count)), to: &frames)
        RealtimeOutbox.appendTextFrame(Array("{\"type\":\"ka\"}".utf8)[...], to: &frames)

        let channel = EmbeddedChannel(handler: ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: 1 << 20)))
        try channel.writeInbound(frames)
        let first = try #require(try channel.readInbound(as: WebSocketFrame.self))
        #expect(first.fin && first.opcode == .text && first.maskKey == nil)
        #expect(Array(first.data.readableBytesView) == payload)
        let second = try #require(try channel.readInbound(as: WebSocketFrame.self))
        #expect(String(buffer: second.data) == #"{"type":"ka"}"#)
        #expect(try channel.readInbound(as: WebSocketFrame.self) == nil)
    }
}
