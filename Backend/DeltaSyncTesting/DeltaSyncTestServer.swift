import AsyncHTTPClient
import Foundation
import DeltaSyncAuth
import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncServer
import HTTPTypes
import NIOCore

/// A DeltaSync server for one test: started in-process on a free loopback port with an
/// in-memory store, stopped when the test's closure returns or throws.
///
/// ```swift
/// try await DeltaSyncTestServer.withServer(schema: """
///     type Todo @model { id: ID! name: String! }
///     """) { server in
///     let created = try await server.graphQL(
///         "mutation { createTodo(input: {name: \"milk\"}) { id _version } }")
///     #expect(created["data"]["createTodo"]["_version"] == 1)
///     // Point the app under test at server.graphQLURL / server.realtimeURL with server.apiKey.
/// }
/// ```
public struct DeltaSyncTestServer: Sendable {
    /// The server as started: host, port, API key, and `stop()`.
    public let running: RunningServer

    /// `http://127.0.0.1:<port>/graphql`: what an Amplify configuration calls the endpoint.
    public var graphQLURL: String { running.graphQLURL }
    /// `ws://127.0.0.1:<port>/graphql`: where the realtime WebSocket is served (AppSync's
    /// `/graphql/realtime` path is accepted too).
    public var realtimeURL: String { running.realtimeURL }
    public var apiKey: String { running.apiKey }
    public var port: Int { running.port }
    /// The server's data folder, where its development issuer keeps its key.
    public let dataDirectory: String
    /// Reset, seed, snapshots, the clock and faults of this server (its fixture API in Swift).
    public let fixture: Fixture
    /// The AWS region it serves as (``ServerConfiguration/region``): what IAM requests sign for.
    public let region: String

    /// Where test servers keep the development issuer's key unless a test sets another: one
    /// folder for every test server of a run, so tokens are signed with one key.
    public static let defaultDataDirectory = (NSTemporaryDirectory() as NSString).appendingPathComponent("deltasync-testing")

    /// The API key test servers use unless a test sets another.
    public static let defaultAPIKey = "da2-deltasynctesting"

    /// Runs `body` with a started server for `project` and stops the server afterwards.
    ///
    /// - Parameter configure: changes to the test defaults (in-memory store, free port on
    ///   127.0.0.1, ``defaultAPIKey``), for example a manual clock or short TTLs.
    public static func withServer<T: Sendable>(
        project: AmplifyProject, configure: (inout ServerConfiguration) -> Void = { _ in },
        _ body: (DeltaSyncTestServer) async throws -> T
    ) async throws -> T {
        var configuration = testConfiguration
        configure(&configuration)
        let server = try await start(project: project, configuration: configuration)
        let result: T
        do {
            result = try await body(server)
        } catch {
            await server.running.stop()
            throw error
        }
        await server.running.stop()
        return result
    }

    /// The test defaults: in-memory store, a free port on 127.0.0.1, ``defaultAPIKey``,
    /// ``defaultDataDirectory``.
    static var testConfiguration: ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.storage = .inMemory
        configuration.apiKey = defaultAPIKey
        configuration.dataDirectory = defaultDataDirectory
        return configuration
    }

    /// Starts a server; the caller stops it (`running.stop()`).
    static func start(project: AmplifyProject, configuration: ServerConfiguration) async throws -> DeltaSyncTestServer {
        let server = try DeltaSyncServer(project: project, configuration: configuration)
        let running = try await server.start()
        return DeltaSyncTestServer(
            running: running, dataDirectory: configuration.dataDirectory, fixture: server.fixture, region: configuration.region)
    }

    /// ``withServer(project:configure:_:)`` for the text of an Amplify schema.
    public static func withServer<T: Sendable>(
        schema: String, configure: (inout ServerConfiguration) -> Void = { _ in },
        _ body: (DeltaSyncTestServer) async throws -> T
    ) async throws -> T {
        let project = AmplifyProject(schema: try AmplifySchema.parse(source: schema), schemaFiles: ["<test schema>"])
        return try await withServer(project: project, configure: configure, body)
    }

    /// ``withServer(project:configure:_:)`` for a schema file.
    public static func withServer<T: Sendable>(
        schemaFile: String, configure: (inout ServerConfiguration) -> Void = { _ in },
        _ body: (DeltaSyncTestServer) async throws -> T
    ) async throws -> T {
        try await withServer(project: try AmplifyProject.load(schemaFile: schemaFile), configure: configure, body)
    }

    /// A realtime client connected to this server with its API key in the upgrade request's
    /// headers (one of the ways AppSync takes it); send `connection_init` with
    /// ``RealtimeTestClient/initialize()``.
    public func realtimeClient() -> RealtimeTestClient {
        RealtimeTestClient(url: realtimeURL, headers: [HTTPField.Name("x-api-key")!: apiKey])
    }

    /// Sends a GraphQL request over HTTP with the API key and returns the whole JSON answer
    /// (`data`, `errors`), whatever its status.
    public func graphQL(_ query: String, variables: JSONValue = [:], apiKey: String? = nil) async throws -> JSONValue {
        try await Self.graphQL(query, variables: variables, url: graphQLURL, apiKey: apiKey ?? self.apiKey)
    }

    /// Sends a GraphQL request with `Authorization: token` (a user pools or OIDC JWT, or a
    /// Lambda authorizer's token) and returns the whole JSON answer, whatever its status.
    public func graphQL(_ query: String, variables: JSONValue = [:], token: String) async throws -> JSONValue {
        try await Self.graphQL(query, variables: variables, url: graphQLURL, headers: ["authorization": token])
    }

    /// A development token of this server's issuer (what `deltasync token` prints): a
    /// Cognito-shaped ID token for `username`, in `groups`, with any other `claims`.
    public func token(
        username: String, sub: String? = nil, groups: [String] = [], claims: [String: JSONValue] = [:],
        lifetime: TimeInterval = 3600
    ) async throws -> String {
        try await DevelopmentIssuer.load(directory: dataDirectory)
            .token(username: username, sub: sub, groups: groups, claims: claims, lifetime: lifetime)
    }

    /// ``graphQL(_:variables:apiKey:)`` to any DeltaSync (or AppSync API-key) endpoint.
    public static func graphQL(_ query: String, variables: JSONValue = [:], url: String, apiKey: String) async throws -> JSONValue {
        try await graphQL(query, variables: variables, url: url, headers: ["x-api-key": apiKey])
    }

    /// A GraphQL request to any endpoint with the given headers; the whole JSON answer.
    public static func graphQL(
        _ query: String, variables: JSONValue = [:], url: String, headers: [String: String]
    ) async throws -> JSONValue {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "content-type", value: "application/json")
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        let body: JSONValue = ["query": .string(query), "variables": variables]
        request.body = .bytes(ByteBuffer(bytes: JSONWriter.bytes(body)))
        let answer = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        return try JSONValue(parsing: String(buffer: try await answer.body.collect(upTo: 64 << 20)))
    }
}
