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
    let running: RunningServer

    /// Runs `body` with a started server (configured by `configure`) and stops it afterwards.
    static func run(
        _ configure: (inout ServerConfiguration) -> Void = { _ in }, _ body: (SyncServer) async throws -> Void
    ) async throws {
        try await DeltaSyncTestServer.withServer(schemaFile: schemaFile, configure: { configuration in
            configuration.apiKey = apiKey
            configure(&configuration)
        }) { server in
            try await body(SyncServer(running: server.running))
        }
    }

    static var schemaFile: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("schema.graphql").path
    }

    /// Runs `body` with `count` servers on one fresh PostgreSQL schema, each with a store (a
    /// connection pool) of its own, as separate `deltasync serve` processes would be.
    static func runShared(
        count: Int, _ configure: @escaping (inout ServerConfiguration) -> Void = { _ in }, _ body: ([SyncServer]) async throws -> Void
    ) async throws {
        let schema = try AmplifyProject.load(schemaFile: schemaFile).schema
        let settings = try await PostgresCluster.settings(pool: 4)
        var stores: [PostgresItemStore] = []
        for _ in 0..<count { stores.append(try await PostgresItemStore.connect(settings: settings, schema: schema)) }
        func nest(_ index: Int, _ started: [SyncServer]) async throws {
            guard index < count else { return try await body(started) }
            try await DeltaSyncTestServer.withServer(schemaFile: schemaFile, configure: { [store = stores[index]] configuration in
                configuration.apiKey = apiKey
                configuration.storage = .store(store)
                configure(&configuration)
            }) { server in
                try await nest(index + 1, started + [SyncServer(running: server.running)])
            }
        }
        do {
            try await nest(0, [])
        } catch {
            for store in stores { await store.shutdown() }
            throw error
        }
        for store in stores { await store.shutdown() }
    }

    var endpoint: SyncEndpoint { SyncEndpoint(url: URL(string: running.graphQLURL)!, apiKey: Self.apiKey) }

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
            "{ \(listField)(limit: 1000) { items { \(selection) _deleted } nextToken } }", url: running.graphQLURL,
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
