import DeltaSyncServer
import DeltaSyncTesting
import HTTPTypes
import NIOWebSocket
import Testing

/// Stopping a server tells realtime clients it is going away (1001), so they reconnect later
/// instead of reporting an error.
@Suite struct GracefulShutdownTests {
    @Test(.timeLimit(.minutes(1))) func stoppingClosesRealtimeConnectionsWithGoingAway() async throws {
        let server = try await TestServer().server
        let running = try await server.start()
        let clients = (0..<3).map { _ in
            RealtimeTestClient(url: running.realtimeURL, headers: [HTTPField.Name("x-api-key")!: TestServer.apiKey])
        }
        for client in clients { _ = try await client.initialize() }
        async let stopped: Void = running.stop()
        for client in clients {
            let close = try await client.closed()
            #expect(close?.closeCode == .goingAway)
        }
        await stopped
    }
}
