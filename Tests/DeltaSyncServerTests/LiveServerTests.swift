import AsyncHTTPClient
import DeltaSyncCore
import DeltaSyncServer
import NIOCore
import Testing

/// The embedding API tests use: a real socket on a free port.
@Suite struct LiveServerTests {
    @Test func startServesOnAFreePortUntilStopped() async throws {
        let server = try await TestServer().server
        let running = try await server.start()
        #expect(running.port > 0)
        #expect(running.graphQLURL == "http://127.0.0.1:\(running.port)/graphql")

        var request = HTTPClientRequest(url: running.graphQLURL)
        request.method = .POST
        request.headers.add(name: "content-type", value: "application/json")
        request.headers.add(name: "x-api-key", value: running.apiKey)
        request.body = .bytes(ByteBuffer(string: #"{"query":"mutation { createBlog(input: {name: \"Live\"}) { name _version } }"}"#))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let body = try JSONValue(parsing: String(buffer: try await response.body.collect(upTo: 1 << 20)))
        #expect(response.status == .ok)
        #expect(body["data"]["createBlog"] == ["name": "Live", "_version": 1])

        await running.stop()
        var after = HTTPClientRequest(url: "http://127.0.0.1:\(running.port)/health")
        after.method = .GET
        await #expect(throws: (any Error).self) { _ = try await HTTPClient.shared.execute(after, timeout: .seconds(5)) }
    }
}
