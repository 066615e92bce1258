import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOConcurrencyHelpers
import NIOCore

/// The example blog schema, read from the repository so tests exercise what users run.
enum ExampleSchema {
    static var blogFile: String {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Examples/blog/schema.graphql").path
    }

    static func blogProject() throws -> AmplifyProject { try AmplifyProject.load(schemaFile: blogFile) }
}

/// A response as a test reads it: status, headers, and the JSON body.
struct GraphQLReply {
    let status: HTTPResponse.Status
    let headers: HTTPFields
    let json: JSONValue

    var data: JSONValue { json["data"] }
    var errors: [JSONValue] { json["errors"].arrayValue ?? [] }
    var firstError: JSONValue { errors.first ?? .null }
}

/// An in-process server (no sockets) on the example schema with an in-memory store.
struct TestServer {
    static let apiKey = "da2-testkey"
    static let adminKey = "dsa-testadminkey"
    let server: DeltaSyncServer

    /// `.inMemory` (the default, unless `configure` sets another store) is a fresh PostgreSQL
    /// schema instead when the suite runs against PostgreSQL (``TestStore``).
    init(
        storage: ServerConfiguration.Storage = .inMemory, project: AmplifyProject? = nil, logger: Logger? = nil,
        configure: (inout ServerConfiguration) -> Void = { _ in }
    ) async throws {
        var configuration = ServerConfiguration()
        configuration.apiKey = Self.apiKey
        configuration.adminKey = Self.adminKey
        configuration.storage = storage
        configuration.port = 0
        configure(&configuration)
        let project = try project ?? ExampleSchema.blogProject()
        configuration.storage = try await TestStore.substitute(configuration.storage, schema: project.schema)
        do {
            server = try DeltaSyncServer(project: project, configuration: configuration, logger: logger)
        } catch {
            // A server that does not start gives its PostgreSQL connections back at once: the
            // tests of start errors would otherwise hold them until the process ends.
            await TestStore.close(configuration.storage)
            throw error
        }
    }

    /// Runs `body` with a client bound to the in-process application.
    func withClient<T: Sendable>(_ body: @Sendable (Client) async throws -> T) async throws -> T {
        try await server.application().test(.router) { client in try await body(Client(client: client)) }
    }

    struct Client: Sendable {
        let client: any TestClientProtocol

        /// Sends a GraphQL operation with the API key and decodes the JSON reply.
        func graphQL(_ query: String, _ variables: JSONValue = [:], apiKey: String? = TestServer.apiKey) async throws
            -> GraphQLReply
        {
            let body: JSONValue = ["query": .string(query), "variables": variables]
            return try await post(body.jsonText, apiKey: apiKey)
        }

        /// Sends a GraphQL operation asking for the query plan (`x-deltasync-explain: 1`, which
        /// needs the admin key).
        func explained(_ query: String, _ variables: JSONValue = [:]) async throws -> GraphQLReply {
            let body: JSONValue = ["query": .string(query), "variables": variables]
            return try await post(
                body.jsonText,
                headers: [HTTPField.Name("x-deltasync-explain")!: "1", HTTPField.Name("x-deltasync-admin-key")!: TestServer.adminKey])
        }

        /// GETs a path with the API key and decodes the JSON reply.
        func get(_ uri: String) async throws -> GraphQLReply {
            try await client.execute(
                uri: uri, method: .get, headers: [HTTPField.Name("x-api-key")!: TestServer.apiKey]
            ) { response in
                GraphQLReply(
                    status: response.status, headers: response.headers,
                    json: try JSONValue(parsing: String(buffer: response.body)))
            }
        }

        /// A fixture API request with the admin key (or `key`); the reply's JSON, `null` when empty.
        func admin(_ method: HTTPRequest.Method, _ uri: String, _ body: String? = nil, key: String? = TestServer.adminKey) async throws
            -> GraphQLReply
        {
            var headers: HTTPFields = [.contentType: "application/json"]
            if let key { headers[HTTPField.Name("x-deltasync-admin-key")!] = key }
            return try await client.execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) }) { response in
                let text = String(buffer: response.body)
                let json = text.isEmpty ? JSONValue.null : try JSONValue(parsing: text)
                return GraphQLReply(status: response.status, headers: response.headers, json: json)
            }
        }

        /// POSTs raw body text to /graphql.
        func post(_ body: String, apiKey: String? = TestServer.apiKey, headers extra: HTTPFields = [:]) async throws
            -> GraphQLReply
        {
            var headers: HTTPFields = [.contentType: "application/json"]
            if let apiKey { headers[HTTPField.Name("x-api-key")!] = apiKey }
            headers.append(contentsOf: extra)
            return try await client.execute(
                uri: "/graphql", method: .post, headers: headers, body: ByteBuffer(string: body)
            ) { response in
                let text = String(buffer: response.body)
                let json = text.isEmpty ? JSONValue.null : try JSONValue(parsing: text)
                return GraphQLReply(status: response.status, headers: response.headers, json: json)
            }
        }

        /// Runs a mutation or query expected to succeed and returns `data.<field>`.
        func expectData(_ field: String, _ query: String, _ variables: JSONValue = [:]) async throws -> JSONValue {
            let reply = try await graphQL(query, variables)
            guard reply.errors.isEmpty else {
                throw TestFailure("unexpected errors for \(field): \(reply.json.jsonText)")
            }
            return reply.data[field]
        }
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A clock tests move by hand, to cross the delta and tombstone TTLs without waiting.
final class ManualClock: Sendable {
    private let current: NIOLockedValueBox<Date>

    init(_ start: Date = Date(timeIntervalSince1970: 1_700_000_000)) {
        current = NIOLockedValueBox(start)
    }

    var now: Date { current.withLockedValue { $0 } }

    func advance(by seconds: TimeInterval) {
        current.withLockedValue { $0 += seconds }
    }

    /// Sets the clock to an exact epoch millisecond.
    func set(milliseconds: Int) {
        current.withLockedValue { $0 = Date(timeIntervalSince1970: Double(milliseconds) / 1000) }
    }
}
