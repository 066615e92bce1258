import DeltaSyncPostgres
import DeltaSyncPostgresTestSupport
import DeltaSyncSchema
import DeltaSyncServer
import Foundation

/// Which store the server suites run against: SQLite in memory, or, with
/// `DELTASYNC_TEST_STORE=postgres` (as `scripts/test.sh` runs this suite a second time), a fresh
/// PostgreSQL schema per server, so that every behaviour these tests check holds on both.
enum TestStore {
    static let isPostgres = ProcessInfo.processInfo.environment["DELTASYNC_TEST_STORE"] == "postgres"

    /// `storage`, or, against PostgreSQL, a PostgreSQL store in place of `.inMemory`. Files
    /// stay SQLite: those tests are about SQLite files. The store closes itself when the
    /// server lets go of it.
    static func substitute(_ storage: ServerConfiguration.Storage, schema: AmplifySchema) async throws -> ServerConfiguration.Storage {
        guard isPostgres, case .inMemory = storage else { return storage }
        return .store(try await PostgresItemStore.connect(settings: try await PostgresCluster.settings(pool: 2), schema: schema))
    }

    /// Closes a store ``substitute(_:schema:)`` opened.
    static func close(_ storage: ServerConfiguration.Storage) async {
        guard case .store(let store) = storage, let postgres = store as? PostgresItemStore else { return }
        await postgres.shutdown()
    }
}
