import AsyncHTTPClient
import DeltaSyncCore
import DeltaSyncTesting
import NIOCore

/// GraphQL over HTTP to a started server.
enum LiveHTTP {
    static func graphQL(_ url: String, _ query: String, _ variables: JSONValue = [:], apiKey: String = TestServer.apiKey)
        async throws -> JSONValue
    {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "content-type", value: "application/json")
        request.headers.add(name: "x-api-key", value: apiKey)
        let body: JSONValue = ["query": .string(query), "variables": variables]
        request.body = .bytes(ByteBuffer(string: body.jsonText))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        return try JSONValue(parsing: String(buffer: try await response.body.collect(upTo: 16 << 20)))
    }
}

extension RealtimeTestClient {
    /// A `start` with the test server's API key in `extensions.authorization`.
    func start(id: String, query: String, variables: JSONValue = [:]) {
        start(id: id, query: query, variables: variables, apiKey: TestServer.apiKey)
    }
}
