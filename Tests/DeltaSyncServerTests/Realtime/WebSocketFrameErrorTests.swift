import DeltaSyncCore
import DeltaSyncServer
import Testing

/// Frames RFC 6455 says end a connection, and the close code the client is told.
@Suite struct WebSocketFrameErrorTests {
    static func withSocket(_ body: (RawWebSocket) async throws -> Void) async throws {
        let running = try await TestServer().server.start()
        defer { Task { await running.stop() } }
        let (socket, status) = try await RawWebSocket.open(port: running.port)
        #expect(status == "HTTP/1.1 101 Switching Protocols")
        try await body(socket)
        // Answer the server's close frame, as a client does, so it closes the socket at once.
        await socket.send(opcode: 0x8, [0x03, 0xE8])
        await socket.connection.readUntilClosed()
        #expect(socket.connection.closed)
    }

    @Test func anUnmaskedFrameClosesWith1002() async throws {
        try await Self.withSocket { socket in
            await socket.send(opcode: 0x1, Array(#"{"type":"connection_init"}"#.utf8), masked: false)
            #expect(await socket.closeCode() == 1002)
        }
    }

    @Test func textThatIsNotUTF8ClosesWith1007() async throws {
        try await Self.withSocket { socket in
            await socket.send(opcode: 0x1, Array(#"{"type":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8))
            #expect(await socket.closeCode() == 1007)
        }
    }

    @Test func aFragmentedMessageOverTheLimitClosesWith1009() async throws {
        try await Self.withSocket { socket in
            let fragment = [UInt8](repeating: 0x20, count: 64 * 1024)
            await socket.send(opcode: 0x1, fragment, fin: false)
            for _ in 0..<31 { await socket.send(opcode: 0x0, fragment, fin: false) }
            await socket.send(opcode: 0x0, fragment, fin: true)
            #expect(await socket.closeCode() == 1009)
        }
    }

    @Test func aReservedOpcodeClosesWith1002() async throws {
        try await Self.withSocket { socket in
            await socket.send(opcode: 0x3, Array("{}".utf8))
            #expect(await socket.closeCode() == 1002)
        }
    }

    @Test func aContinuationWithoutAFirstFragmentClosesWith1002() async throws {
        try await Self.withSocket { socket in
            await socket.send(opcode: 0x0, Array("{}".utf8))
            #expect(await socket.closeCode() == 1002)
        }
    }

    @Test func theServerStillServesAcknowledgedClientsAfterwards() async throws {
        try await RealtimeTests.withServer { live in
            let (bad, _) = try await RawWebSocket.open(port: live.running.port)
            await bad.send(opcode: 0x1, [0x7B], masked: false)
            #expect(await bad.closeCode() == 1002)
            let client = try await live.connected()
            _ = await client.close()
        }
    }
}
