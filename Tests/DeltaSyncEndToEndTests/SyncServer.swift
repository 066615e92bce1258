import DeltaSyncClient
import DeltaSyncServer
import Foundation

/// A real `deltasync` server on a free port with an in-memory store, for clients to sync with.
struct SyncServer {
    static let apiKey = "da2-endtoend"
    let running: RunningServer

    /// Runs `body` with a started server and stops the server afterwards.
    static func run(_ body: (SyncServer) async throws -> Void) async throws {
        let server = try await start()
        do {
            try await body(server)
        } catch {
            await server.running.stop()
            throw error
        }
        await server.running.stop()
    }

    private static func start() async throws -> SyncServer {
        var configuration = ServerConfiguration()
        configuration.apiKey = apiKey
        configuration.storage = .inMemory
        configuration.port = 0
        let schema = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("schema.graphql").path
        let server = try DeltaSyncServer(project: try AmplifyProject.load(schemaFile: schema), configuration: configuration)
        return SyncServer(running: try await server.start())
    }

    var endpoint: SyncEndpoint { SyncEndpoint(url: URL(string: running.graphQLURL)!, apiKey: Self.apiKey) }

    /// A device: a new in-memory store syncing with this server.
    func device(_ configure: (inout DataStoreConfiguration) -> Void = { _ in }, errors: ErrorLog? = nil) throws -> DataStore {
        var configuration = DataStoreConfiguration(endpoint: endpoint)
        configure(&configuration)
        return try DataStore(models: DeltaSyncModels.self, configuration: configuration, errorHandler: { errors?.append($0) })
    }
}

/// Errors a store reported, from any thread.
final class ErrorLog: @unchecked Sendable {
    private let lock = NSLock()
    private var reported: [DataStoreError] = []
    var errors: [DataStoreError] { lock.withLock { reported } }
    func append(_ error: DataStoreError) { lock.withLock { reported.append(error) } }
}
