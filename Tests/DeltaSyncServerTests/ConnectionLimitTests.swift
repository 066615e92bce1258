import DeltaSyncCore
import DeltaSyncServer
import Foundation
import Testing

/// Timeouts and the connection limit, with timeouts shortened to a fraction of a second: each
/// test awaits the server's close (reads with a deadline), never sleeps.
@Suite(.serialized, .tags(.timing)) struct ConnectionLimitTests {
    static func start(_ configure: @escaping (inout ServerConfiguration) -> Void) async throws -> RunningServer {
        try await TestServer(configure: configure).server.start()
    }

    @Test func aConnectionThatSendsNothingIsClosedSilently() async throws {
        let running = try await Self.start { $0.connections.idleTimeout = .milliseconds(200) }
        defer { Task { await running.stop() } }
        let started = ContinuousClock.now
        let connection = try RawConnection(port: running.port)
        await connection.readUntilClosed()
        #expect(connection.closed)
        #expect(connection.received.isEmpty)
        #expect(ContinuousClock.now - started < .seconds(4))
    }

    @Test func aKeptAliveConnectionIsClosedWhenIdleAfterItsResponse() async throws {
        let running = try await Self.start { $0.connections.idleTimeout = .milliseconds(200) }
        defer { Task { await running.stop() } }
        let connection = try RawConnection(port: running.port)
        await connection.send("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n")
        #expect(await connection.readResponse().hasPrefix("HTTP/1.1 200 OK"))
        #expect(!connection.closed)
        await connection.readUntilClosed()
        #expect(connection.closed)
    }

    @Test func aSlowHeadGets408() async throws {
        let running = try await Self.start { $0.connections.requestHeadTimeout = .milliseconds(200) }
        defer { Task { await running.stop() } }
        let connection = try RawConnection(port: running.port)
        await connection.send("GET /health HTTP/1.1\r\nHost: local")
        await connection.readUntilClosed()
        #expect(connection.statusLine == "HTTP/1.1 408 Request Timeout")
        #expect(connection.closed)
    }

    @Test func aSlowBodyGets408() async throws {
        let running = try await Self.start { $0.connections.requestBodyTimeout = .milliseconds(200) }
        defer { Task { await running.stop() } }
        let connection = try RawConnection(port: running.port)
        await connection.send(
            "POST /graphql HTTP/1.1\r\nHost: localhost\r\nx-api-key: \(TestServer.apiKey)\r\nContent-Length: 50\r\n\r\n{\"que")
        await connection.readUntilClosed()
        #expect(connection.statusLine == "HTTP/1.1 408 Request Timeout")
        #expect(connection.text.contains("The request body did not arrive in time."))
        #expect(connection.closed)
    }

    @Test func idleConnectionsAtTheLimitMakeRoomForHealth() async throws {
        let running = try await Self.start { $0.connections.maxConnections = 4 }
        defer { Task { await running.stop() } }
        // Each idle connection is known to the server once it has answered on it.
        var idle: [RawConnection] = []
        for _ in 0..<4 {
            let connection = try RawConnection(port: running.port)
            await connection.send("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n")
            #expect(await connection.readResponse().hasPrefix("HTTP/1.1 200 OK"))
            idle.append(connection)
        }
        let health = try RawConnection(port: running.port)
        await health.send("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n")
        #expect(await health.readResponse().hasPrefix("HTTP/1.1 200 OK"))
        // The connection idle longest made the room.
        await idle[0].readUntilClosed()
        #expect(idle[0].closed)
        let reply = try await LiveHTTP.graphQL(running.graphQLURL, "{ listPosts { items { id } } }")
        #expect(reply["data"]["listPosts"]["items"] == [])
    }

    @Test func webSocketsCannotTakeTheSlotsKeptForHTTP() async throws {
        let running = try await Self.start {
            $0.connections.maxConnections = 10
            $0.connections.reservedForHTTP = 9
        }
        defer { Task { await running.stop() } }
        let (first, firstStatus) = try await RawWebSocket.open(port: running.port)
        #expect(firstStatus == "HTTP/1.1 101 Switching Protocols")
        let (second, secondStatus) = try await RawWebSocket.open(port: running.port)
        await second.connection.readUntilClosed()
        #expect(secondStatus == "HTTP/1.1 503 Service Unavailable")
        #expect(second.connection.text.contains("LimitExceededError"))
        #expect(second.connection.closed)
        _ = first
        let health = try RawConnection(port: running.port)
        await health.send("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n")
        #expect(await health.readResponse().hasPrefix("HTTP/1.1 200 OK"))
    }

    @Test func aWebSocketWithoutConnectionInitIsClosed() async throws {
        let running = try await Self.start { $0.realtime.connectionInitTimeout = .milliseconds(200) }
        defer { Task { await running.stop() } }
        let (socket, status) = try await RawWebSocket.open(port: running.port)
        #expect(status == "HTTP/1.1 101 Switching Protocols")
        #expect(await socket.closeCode() == 1008)
    }
}
