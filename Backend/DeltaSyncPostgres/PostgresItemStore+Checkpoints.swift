import DeltaSyncCore
import DeltaSyncStorage
import PostgresNIO

extension PostgresItemStore {
    /// Every model table, the delta log and the conflict log, in one snapshot.
    private var checkpointTables: [String] {
        catalog.sortedTables.map(\.qualifiedName) + [PostgresSyncLog.delta, PostgresSyncLog.conflicts].map(catalog.qualified)
    }

    /// Every table's rows, copied into memory in one snapshot.
    public func checkpoint() async throws -> any StoreCheckpoint {
        let names = checkpointTables
        let schema = settings.schema
        return try await transaction(.read) { tx in
            let tables = try names.map { name in
                let rows = try tx.connection.value(
                    String.self, "copy \(name) for a checkpoint", "SELECT coalesce(jsonb_agg(t), '[]'::jsonb)::text FROM \(name) t")
                return PostgresCheckpoint.Table(name: name, rows: rows ?? "[]")
            }
            return PostgresCheckpoint(schema: schema, tables: tables)
        }
    }

    /// Puts a checkpoint's rows back in one write transaction. The change clock is left where
    /// it is: it only moves forward, so it is already past every change in the checkpoint.
    public func restore(_ checkpoint: any StoreCheckpoint) async throws {
        guard let checkpoint = checkpoint as? PostgresCheckpoint, checkpoint.schema == settings.schema,
            checkpoint.tables.map(\.name) == checkpointTables
        else {
            throw AppSyncError(.badRequest, "This checkpoint was not made by this PostgreSQL store; restore it into the store that made it.")
        }
        try await transaction(.alone) { tx in
            for table in checkpoint.tables {
                try tx.connection.run("empty \(table.name) for a restore", "DELETE FROM \(table.name)")
                var b = SQLBuilder()
                try tx.connection.run(
                    "restore \(table.name)",
                    "INSERT INTO \(table.name) SELECT * FROM jsonb_populate_recordset(NULL::\(table.name), \(b.bind(table.rows))::jsonb)", b)
            }
        }
    }

    public func export(toFile path: String) async throws {
        throw AppSyncError(.badRequest, "Snapshot files are for SQLite stores; use pg_dump/pg_restore for a PostgreSQL store.")
    }

    public func restore(fromFile path: String) async throws {
        throw AppSyncError(.badRequest, "Snapshot files are for SQLite stores; use pg_dump/pg_restore for a PostgreSQL store.")
    }
}
