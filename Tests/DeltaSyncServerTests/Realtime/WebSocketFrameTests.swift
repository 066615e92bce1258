import DeltaSyncCore
import DeltaSyncServer
import Testing

/// What a realtime socket does with the frames RFC 6455 allows besides whole text messages:
/// pings, fragments, binary messages and the client's close.
@Suite struct WebSocketFrameTests {
    @Test func aPingIsAnsweredWithAPongCarryingItsPayload() async throws {
        try await WebSocketFrameErrorTests.withSocket { socket in
            await socket.send(opcode: 0x9, Array("are you there".utf8))
            #expect(await socket.payload(of: 0xA) == Array("are you there".utf8))
        }
    }

    @Test func aFragmentedMessageIsJoinedAndAnswered() async throws {
        try await WebSocketFrameErrorTests.withSocket { socket in
            await socket.send(opcode: 0x1, Array(#"{"type":"conn"#.utf8), fin: false)
            // A ping may come between the fragments of a message (RFC 6455 5.4).
            await socket.send(opcode: 0x9, [1])
            await socket.send(opcode: 0x0, Array(#"ection_in"#.utf8), fin: false)
            await socket.send(opcode: 0x0, Array(#"it"}"#.utf8), fin: true)
            let acknowledgement = try #require(await socket.payload(of: 0x1))
            #expect(try JSONValue(parsing: String(decoding: acknowledgement, as: UTF8.self))["type"] == "connection_ack")
        }
    }

    @Test func aBinaryMessageIsAnsweredWithAnError() async throws {
        try await WebSocketFrameErrorTests.withSocket { socket in
            await socket.send(opcode: 0x2, Array(#"{"type":"connection_init"}"#.utf8))
            let answer = try #require(await socket.payload(of: 0x1))
            let message = try JSONValue(parsing: String(decoding: answer, as: UTF8.self))
            #expect(message["type"] == "error")
            #expect(message["payload"]["errors"][0]["errorType"] == "MalformedMessage")
        }
    }

    @Test func theClientsCloseIsAnsweredAndTheSocketClosed() async throws {
        let running = try await TestServer().server.start()
        defer { Task { await running.stop() } }
        let (socket, _) = try await RawWebSocket.open(port: running.port)
        await socket.send(opcode: 0x8, [0x03, 0xE8])
        #expect(await socket.closeCode() == 1000)
        await socket.connection.readUntilClosed()
        #expect(socket.connection.closed)
    }
}
