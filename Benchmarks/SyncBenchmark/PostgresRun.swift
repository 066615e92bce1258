// Shared by SyncBenchmark and ServerCreateBenchmark (the latter holds a symlink to this file).
import DeltaSyncPostgres
import DeltaSyncSchema
import Foundation
import Logging
import PostgresNIO

/// The PostgreSQL server of `--postgres URL` for one benchmark run: each store of the run in a
/// PostgreSQL schema of its own, `<run>_<name>`, so runs against the same server never meet, and
/// all of them dropped by ``dropSchemas()``. Connections go without TLS: the benchmarks are meant
/// for a local server such as `scripts/postgres-cluster.sh` starts.
struct PostgresRun: Sendable {
    let settings: PostgresStoreSettings
    /// The prefix of the run's schema names.
    let run: String
    let logger = Logger(label: "benchmark.postgres")

    init(url: String) throws {
        var settings = try PostgresStoreSettings(url: url)
        settings.tls = .disable
        self.settings = settings
        run = "bench_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(12)
    }

    func schemaName(_ name: String) -> String { "\(run)_\(name)" }

    /// `"<run>_<name>"."<model>"`, the table a store of ``store(_:schema:)`` keeps `model` in.
    func table(_ name: String, model: String) -> String { "\"\(schemaName(name))\".\"\(model)\"" }

    /// A store on the fresh schema `<run>_<name>`; the caller shuts it down.
    func store(_ name: String, schema: AmplifySchema) async throws -> PostgresItemStore {
        var settings = settings
        settings.schema = schemaName(name)
        return try await PostgresItemStore.connect(settings: settings, schema: schema)
    }

    var connectionConfiguration: PostgresConnection.Configuration {
        .init(
            host: settings.host, port: settings.port, username: settings.username, password: settings.password,
            database: settings.database, tls: .disable)
    }

    /// A plain connection (no store in between), for the raw baselines.
    func connect() async throws -> PostgresConnection {
        try await PostgresConnection.connect(configuration: connectionConfiguration, id: 0, logger: logger)
    }

    /// A plain connection pool of at most `connections`, for the raw baselines; run it with `run()`.
    func client(connections: Int) -> PostgresClient {
        var configuration = PostgresClient.Configuration(
            host: settings.host, port: settings.port, username: settings.username, password: settings.password,
            database: settings.database, tls: .disable)
        configuration.options.maximumConnections = connections
        return PostgresClient(configuration: configuration, backgroundLogger: logger)
    }

    /// Drops every schema of the run (their tables with them).
    func dropSchemas() async throws {
        let connection = try await connect()
        var names: [String] = []
        for try await name in try await connection.query(
            "SELECT nspname::text FROM pg_namespace WHERE starts_with(nspname, \(run + "_"))", logger: logger
        ).decode(String.self) {
            names.append(name)
        }
        for name in names {
            try await connection.query("DROP SCHEMA \(unescaped: "\"\(name)\"") CASCADE", logger: logger)
        }
        try await connection.close().get()
    }
}
