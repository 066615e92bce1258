import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded
import NIOWebSocket
import DeltaSyncTestSupport
import Testing

@testable import DeltaSyncGraphQL
@testable import DeltaSyncRealtime
@testable import DeltaSyncServer

/// The outbox writes finished frames below the WebSocket frame encoder; where it cannot find
/// one, an operator must learn that messages were dropped, and the subscriber must not wait.
@Suite struct RealtimeOutboxTests {
    @Test func messagesGoOutBelowTheFrameEncoder() throws {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(WebSocketFrameEncoder())
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        let log = RecordedLog()
        let outbox = RealtimeOutbox(channel: channel, limit: 10, logger: log.logger) {}
        #expect(outbox.send(Array(#"{"type":"ka"}"#.utf8)))
        var written = try #require(try channel.readOutbound(as: ByteBuffer.self))
        #expect(written.readBytes(length: 2) == [0x81, 13])
        #expect(written.readString(length: 13) == #"{"type":"ka"}"#)
        #expect(log.recorded.isEmpty)
    }

    @Test func withoutAFrameEncoderTheConnectionIsClosedAndTheDropLogged() throws {
        let channel = EmbeddedChannel()
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        let log = RecordedLog()
        let outbox = RealtimeOutbox(channel: channel, limit: 10, logger: log.logger) {}
        #expect(outbox.send(Array(#"{"type":"ka"}"#.utf8)))
        channel.embeddedEventLoop.run()
        #expect(!channel.isActive, "the subscriber is disconnected, not left waiting")
        let entry = try #require(log.recorded.first)
        #expect(entry.level == .error)
        #expect(entry.message.contains("realtime messages dropped"))
        #expect(entry.metadata["buffers"] == "1")
        #expect(!outbox.send(Array(#"{"type":"ka"}"#.utf8)), "nothing more is queued")
    }

    /// A close frame goes out behind what was queued, a pong too, and nothing is queued after
    /// the close; the close's callback runs once it is written.
    @Test func aCloseFrameFollowsTheQueuedMessagesAndEndsTheQueue() throws {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(WebSocketFrameEncoder())
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        let outbox = RealtimeOutbox(channel: channel, limit: 10, logger: RecordedLog().logger) {}
        let closed = NIOLockedValueBox(false)
        #expect(outbox.send(Array("a".utf8)))
        outbox.sendPong([9])
        outbox.close(code: 1001, reason: "bye") { closed.withLockedValue { $0 = true } }
        #expect(!outbox.send(Array("b".utf8)), "nothing after the close")
        channel.embeddedEventLoop.run()
        var bytes: [UInt8] = []
        while var buffer = try channel.readOutbound(as: ByteBuffer.self) { bytes += buffer.readBytes(length: buffer.readableBytes)! }
        #expect(bytes == [0x81, 1, 0x61, 0x8A, 1, 9, 0x88, 5, 0x03, 0xE9] + Array("bye".utf8))
        #expect(closed.withLockedValue { $0 })
    }

    /// A reason longer than a control frame holds is cut at a character, never inside one.
    @Test func aLongCloseReasonIsCutAtACharacter() throws {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(WebSocketFrameEncoder())
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        let outbox = RealtimeOutbox(channel: channel, limit: 10, logger: RecordedLog().logger) {}
        outbox.close(code: 1000, reason: String(repeating: "é", count: 100))
        var buffer = try #require(try channel.readOutbound(as: ByteBuffer.self))
        let header = buffer.readBytes(length: 2)!
        #expect(header[0] == 0x88 && header[1] <= 125)
        _ = buffer.readBytes(length: 2)
        #expect(String(validating: buffer.readableBytesView, as: UTF8.self) == String(repeating: "é", count: 61))
    }
}
