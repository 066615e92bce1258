import DeltaSyncPostgres
import DeltaSyncPostgresTestSupport
import DeltaSyncSchema

extension PostgresCluster {
    /// A store of these models on a fresh schema, shut down after `body`.
    static func withStore(
        _ models: [ModelSchema], schema: String = uniqueSchema(), pool: Int = 4, _ body: (PostgresItemStore) async throws -> Void
    ) async throws {
        try await withStore(Fixtures.schema(models), in: schema, pool: pool, body)
    }
}
