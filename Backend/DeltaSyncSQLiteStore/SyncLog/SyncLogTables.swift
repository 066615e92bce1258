import DeltaSyncCore
import DeltaSyncSQLite
import DeltaSyncStorage
import GRDB

/// The tables behind ``SyncLogWriter`` and ``SyncLogReader``, shared by every model:
///
/// - `deltasync_clock`: one row, the last change time handed out.
/// - `deltasync_delta`: one row per change, the item as it was after it, indexed by
///   (model, changedAt, seq) so a delta sync reads a range of one model's changes.
/// - `deltasync_conflicts`: the latest ``conflictCapacity`` conflict records.
///
/// `seq` is each table's rowid (`INTEGER PRIMARY KEY`, without AUTOINCREMENT's extra write per
/// insert): it grows with every insert and restarts only once the newest row is gone. The
/// conflict trim never removes the newest record, and deltas order by change time before `seq`,
/// so a restart after the whole delta log expired reorders nothing.
enum SyncLogTables {
    static let clock = "deltasync_clock"
    static let delta = "deltasync_delta"
    static let conflicts = "deltasync_conflicts"

    /// Names no model table may take.
    static let names = [clock, delta, conflicts]

    /// How many conflict records are kept; each insert beyond it removes the oldest.
    static let conflictCapacity = 10_000

    /// The name of the partial index over a model's tombstones, by `_ttl`. It cannot clash with
    /// a model index (`<Model>.<index>`) since GraphQL names hold no `:`.
    static func tombstoneIndex(_ table: ModelTable) -> String {
        "deltasync_tombstones:\(table.name)"
    }

    // MARK: - Migration

    /// Creates what is missing. A format 1 file has none of it; its items were stamped by the
    /// wall clock alone, so the change clock starts after the latest of them.
    static func migrate(_ db: Database, tables: [ModelTable]) throws {
        if try !db.tableExists(clock) {
            // The CHECK keeps it to the single row `stampChange` updates.
            try db.execute(sql: "CREATE TABLE deltasync_clock (id INTEGER PRIMARY KEY CHECK (id = 0), last INTEGER NOT NULL)")
            var last = 0
            for table in tables {
                let latest = try Int.fetchOne(db, sql: "SELECT max(\"_lastChangedAt\") FROM \(table.quotedName)") ?? 0
                last = max(last, latest)
            }
            try db.execute(sql: "INSERT INTO deltasync_clock (id, last) VALUES (0, ?)", arguments: [last])
        }
        try db.execute(sql: """
            CREATE TABLE IF NOT EXISTS deltasync_delta (
                seq INTEGER PRIMARY KEY,
                model TEXT NOT NULL,
                changedAt INTEGER NOT NULL,
                key TEXT NOT NULL,
                version INTEGER NOT NULL,
                item TEXT NOT NULL
            )
            """)
        try db.execute(sql: "CREATE INDEX IF NOT EXISTS deltasync_delta_by_change ON deltasync_delta (model, changedAt, seq)")
        try db.execute(sql: """
            CREATE TABLE IF NOT EXISTS deltasync_conflicts (
                seq INTEGER PRIMARY KEY,
                model TEXT NOT NULL,
                key TEXT NOT NULL,
                mutation TEXT NOT NULL,
                incomingVersion INTEGER NOT NULL,
                storedVersion INTEGER NOT NULL,
                handler TEXT NOT NULL,
                outcome TEXT NOT NULL,
                resultVersion INTEGER,
                at INTEGER NOT NULL
            )
            """)
        // Every SQLite index ends with the rowid: this one also gives one model's records in
        // insertion order, for the newest-first listing.
        try db.execute(sql: "CREATE INDEX IF NOT EXISTS deltasync_conflicts_by_model ON deltasync_conflicts (model)")
    }

    /// The partial index the purge finds expired tombstones with: it holds only deleted items,
    /// so live items cost nothing to index and the purge never reads them.
    static func migrateTombstoneIndex(_ table: ModelTable, _ db: Database) throws {
        try db.execute(sql: """
            CREATE INDEX IF NOT EXISTS \(tombstoneIndex(table).quotedDatabaseIdentifier) \
            ON \(table.quotedName) ("_ttl") WHERE "_deleted" = 1
            """)
    }

    // MARK: - Statements

    /// Advances the clock to `max(now, last + 1)`; ``clockSQL`` reads it back in the same
    /// transaction. Not `RETURNING`: SQLite collects returned rows in a temporary B-tree, whose
    /// page cache it allocated and freed on every mutation (glibc then gave the pages back to
    /// the kernel and faulted them in again: a tenth of a mutation's server time).
    static let stampSQL = "UPDATE deltasync_clock SET last = max(?, last + 1)"

    static let clockSQL = "SELECT last FROM deltasync_clock"

    static let appendDeltaSQL = "INSERT INTO deltasync_delta (model, changedAt, key, version, item) VALUES (?, ?, ?, ?, ?)"

    /// One page of a model's changes after `since` (arguments: model, since, limit).
    static let deltasSQL = """
        SELECT seq, changedAt, item FROM deltasync_delta
        WHERE model = ? AND changedAt > ? ORDER BY changedAt, seq LIMIT ?
        """

    /// The same, resuming after a (changedAt, seq) cursor (arguments: model, changedAt, seq,
    /// limit). The row value is the index range's lower bound, so a later page starts where the
    /// previous one stopped instead of re-reading from `since`.
    static let deltasAfterSQL = """
        SELECT seq, changedAt, item FROM deltasync_delta
        WHERE model = ? AND (changedAt, seq) > (?, ?) ORDER BY changedAt, seq LIMIT ?
        """

    static let recordConflictSQL = """
        INSERT INTO deltasync_conflicts
            (model, key, mutation, incomingVersion, storedVersion, handler, outcome, resultVersion, at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    /// Removes the records older than the newest `conflictCapacity` (argument: the highest seq
    /// to remove): a rowid range, so a seek and at most one row per insert.
    static let trimConflictsSQL = "DELETE FROM deltasync_conflicts WHERE seq <= ?"

    static let conflictColumns = "model, key, mutation, incomingVersion, storedVersion, handler, outcome, resultVersion, at"
    static let conflictsSQL = "SELECT \(conflictColumns) FROM deltasync_conflicts ORDER BY seq DESC LIMIT ?"
    static let modelConflictsSQL = "SELECT \(conflictColumns) FROM deltasync_conflicts WHERE model = ? ORDER BY seq DESC LIMIT ?"
}
