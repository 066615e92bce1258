import DeltaSyncCore
import NIOCore
import NIOPosix

/// A realtime client that subscribes and then stops reading its socket, like an app frozen in
/// the background: raw TCP with reading switched off, so the server's writes back up.
struct StalledSubscriber {
    let channel: any Channel

    /// Upgrades, sends `connection_init` and a `start`, and reads nothing.
    static func connect(port: Int, apiKey: String, query: String) async throws -> StalledSubscriber {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(.autoRead, value: false)
            .channelOption(.socketOption(.so_rcvbuf), value: 16 * 1024)
            .connect(host: "127.0.0.1", port: port).get()
        var bytes = Array((
            "GET /graphql HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                + "Sec-WebSocket-Protocol: graphql-ws\r\nx-api-key: \(apiKey)\r\n\r\n").utf8)
        bytes += frame(#"{"type":"connection_init"}"#)
        let data: JSONValue = ["query": .string(query)]
        let start: JSONValue = [
            "id": "stalled", "type": "start",
            "payload": ["data": .string(data.jsonText), "extensions": ["authorization": ["x-api-key": .string(apiKey)]]],
        ]
        bytes += frame(start.jsonText)
        try await channel.writeAndFlush(ByteBuffer(bytes: bytes)).get()
        return StalledSubscriber(channel: channel)
    }

    /// Starts reading again and waits for the end of the stream: returns once the server has
    /// closed the connection.
    func resumeUntilClosed() async throws {
        try await channel.setOption(.autoRead, value: true).get()
        channel.read()
        try await channel.closeFuture.get()
    }

    /// A masked client text frame (the zero mask leaves the payload as is).
    private static func frame(_ text: String) -> [UInt8] {
        let payload = Array(text.utf8)
        var out: [UInt8] = [0x81]
        if payload.count < 126 {
            out.append(0x80 | UInt8(payload.count))
        } else {
            out += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        }
        return out + [0, 0, 0, 0] + payload
    }
}
