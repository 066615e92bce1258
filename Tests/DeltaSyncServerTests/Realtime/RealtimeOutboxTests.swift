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
}
