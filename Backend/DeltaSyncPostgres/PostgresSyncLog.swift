/// The tables behind ``SyncLogWriter`` and ``SyncLogReader`` in PostgreSQL, mirroring the
/// SQLite store's `SyncLogTables`:
///
/// - `deltasync_clock`: one row, the last change time handed out.
/// - `deltasync_delta`: one row per change, the item (jsonb) as it was after it, indexed by
///   (model, changed_at, seq) so a delta sync reads a range of one model's changes.
/// - `deltasync_conflicts`: the latest ``conflictCapacity`` conflict records.
///
/// `seq` is a `bigserial`: it grows with every insert, in the order writes took it, which need not
/// be their commit order (writes of different items run at once); it only orders rows of one
/// change time.
enum PostgresSyncLog {
    static let clock = "deltasync_clock"
    static let delta = "deltasync_delta"
    static let conflicts = "deltasync_conflicts"
    static let meta = "deltasync_meta"

    /// Names no model table may take.
    static let tableNames = [clock, delta, conflicts, meta, PostgresInstanceChannel.messagesTable]

    /// How many conflict records are kept; each insert beyond it removes the oldest.
    static let conflictCapacity = 10_000

    /// Rows one purge transaction deletes at most: a waiting mutation waits for one batch.
    static let purgeBatchSize = 500

    /// Creates what is missing (run by the migration, under its advisory lock).
    static func createSQL(_ catalog: PostgresCatalog) -> [String] {
        let delta = catalog.qualified(delta), conflicts = catalog.qualified(conflicts)
        return [
            // The CHECK keeps it to the single row `stampChange` updates.
            "CREATE TABLE IF NOT EXISTS \(catalog.qualified(clock)) (id integer PRIMARY KEY CHECK (id = 0), last bigint NOT NULL)",
            """
            CREATE TABLE IF NOT EXISTS \(delta) (
                seq bigserial PRIMARY KEY, model text NOT NULL, changed_at bigint NOT NULL, key text NOT NULL,
                version bigint NOT NULL, item jsonb NOT NULL)
            """,
            "CREATE INDEX IF NOT EXISTS deltasync_delta_by_change ON \(delta) (model, changed_at, seq)",
            """
            CREATE TABLE IF NOT EXISTS \(conflicts) (
                seq bigserial PRIMARY KEY, model text NOT NULL, key text NOT NULL, mutation text NOT NULL,
                incoming_version bigint NOT NULL, stored_version bigint NOT NULL, handler text NOT NULL,
                outcome text NOT NULL, result_version bigint, at bigint NOT NULL)
            """,
            "CREATE INDEX IF NOT EXISTS deltasync_conflicts_by_model ON \(conflicts) (model, seq)",
        ]
    }
}
