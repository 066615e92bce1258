import DeltaSyncClient
import DeltaSyncPostgres
import DeltaSyncPostgresTestSupport
import DeltaSyncSchema
import DeltaSyncServer
import DeltaSyncTesting
import Foundation

/// A real `deltasync` server on a free port with an in-memory store, for devices to sync with.
struct SyncServer {
    static let apiKey = "da2-endtoend"
    let port: Int
    let graphQLURL: String

    /// Runs `body` with a started server (configured by `configure`) and stops it afterwards.
    static func run(
        _ configure: (inout ServerConfiguration) -> Void = { _ in }, _ body: (SyncServer) async throws -> Void
    ) async throws {
        try await DeltaSyncTestServer.withServer(schemaFile: schemaFile, configure: { configuration in
            configuration.apiKey = apiKey
            configure(&configuration)
        }) { server in
            try await body(SyncServer(port: server.port, graphQLURL: server.running.graphQLURL))
        }
    }

    static var schemaFile: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("schema.graphql").path
    }

    /// Runs `body` with `count` `deltasync serve` processes on one fresh PostgreSQL schema, as
    /// behind a load balancer, each started with `arguments` too.
    static func runProcesses(count: Int, arguments: [String] = [], _ body: ([SyncServer]) async throws -> Void) async throws {
        var database = try await PostgresCluster.settings()
        database.schema = PostgresCluster.uniqueSchema()
        let url = "postgres://\(database.username)@\(database.host):\(database.port)/\(database.database)?sslmode=disable&pool=4&schema=\(database.schema)"
        var processes: [ServeProcess] = []
        defer { for process in processes { process.stop() } }
        for _ in 0..<count {
            processes.append(try await ServeProcess(
                ["--schema", schemaFile, "--database", url, "--api-key", apiKey, "--log-level", "error"] + arguments))
        }
        try await body(processes.map { SyncServer(port: $0.port, graphQLURL: "http://127.0.0.1:\($0.port)/graphql") })
    }

    var endpoint: SyncEndpoint { SyncEndpoint(url: URL(string: graphQLURL)!, apiKey: Self.apiKey) }

    /// A device: a new store (in memory unless `location` says otherwise) syncing with this
    /// server, through `link` when given. Retries come quickly, so tests do not wait on backoff.
    func device(
        through link: NetworkLink? = nil, location: DataStore.Location = .inMemory, errors: ErrorLog? = nil,
        _ configure: (inout DataStoreConfiguration) -> Void = { _ in }
    ) throws -> DataStore {
        var endpoint = endpoint
        if let link { endpoint.url = URL(string: "http://127.0.0.1:\(link.port)/graphql")! }
        var configuration = DataStoreConfiguration(endpoint: endpoint)
        configuration.retryBackoff = RetryBackoff(base: .milliseconds(20), maximum: .milliseconds(500))
        configuration.errorHandler = { errors?.append($0) }
        configure(&configuration)
        return try DataStore(models: DeltaSyncModels.self, location: location, configuration: configuration)
    }

    /// Every live item of a model on the server, by a plain GraphQL list query.
    func items(_ listField: String, selection: String) async throws -> [Item] {
        let response = try await DeltaSyncTestServer.graphQL(
            "{ \(listField)(limit: 1000) { items { \(selection) _deleted } nextToken } }", url: graphQLURL,
            apiKey: Self.apiKey)
        return (response["data"][listField]["items"].arrayValue ?? []).compactMap(\.objectValue)
            .filter { $0["_deleted"]?.boolValue != true }
            .map { $0.filter { $0.key != "_deleted" } }
    }
}

/// Errors a store reported, from any thread.
final class ErrorLog: @unchecked Sendable {
    private let lock = NSLock()
    private var reported: [DataStoreError] = []
    var errors: [DataStoreError] { lock.withLock { reported } }
    func append(_ error: DataStoreError) { lock.withLock { reported.append(error) } }
}
