import DeltaSyncCore
import DeltaSyncTesting

/// GraphQL over HTTP to a started server.
enum LiveHTTP {
    static func graphQL(_ url: String, _ query: String, _ variables: JSONValue = [:], apiKey: String = TestServer.apiKey)
        async throws -> JSONValue
    {
        try await DeltaSyncTestServer.graphQL(query, variables: variables, url: url, apiKey: apiKey)
    }
}

extension RealtimeTestClient {
    /// A `start` with the test server's API key in `extensions.authorization`.
    func start(id: String, query: String, variables: JSONValue = [:]) {
        start(id: id, query: query, variables: variables, apiKey: TestServer.apiKey)
    }
}
