import DeltaSyncSQLite
import GRDB

/// The batches ``SQLiteItemStore/purgeExpired(deltasBefore:tombstonesExpiredBy:)`` deletes
/// with, one write transaction each. Every batch finds its rows through an index range, so its
/// cost follows the rows it removes, not the size of the tables.
enum ExpiryPurge {
    /// Rows one transaction deletes at most: a waiting mutation waits for one batch, not for the
    /// whole purge.
    static let batchSize = 500

    /// The first model name after `model` in the delta log, or `nil` past the last: one seek in
    /// the (model, changedAt, seq) index, however many deltas each model has.
    static func deltaModel(after model: String, _ db: Database) throws -> String? {
        let statement = try db.cachedStatement(sql: """
            SELECT model FROM deltasync_delta WHERE model > ? ORDER BY model LIMIT 1
            """)
        return try String.fetchOne(statement, arguments: [model])
    }

    /// Deletes up to ``batchSize`` of `model`'s deltas changed before `before`; returns how many.
    static func deleteDeltas(of model: String, before: Int, _ db: Database) throws -> Int {
        let statement = try db.cachedStatement(sql: """
            DELETE FROM deltasync_delta WHERE seq IN (
                SELECT seq FROM deltasync_delta WHERE model = ? AND changedAt < ? LIMIT \(batchSize)
            )
            """)
        try statement.execute(arguments: [model, before])
        return db.changesCount
    }

    /// Deletes up to ``batchSize`` tombstones of `table` whose `_ttl` is at or before
    /// `expiredBy` (epoch seconds); returns how many. The inner select matches the tombstone
    /// index's `WHERE "_deleted" = 1` word for word, which is what lets SQLite use it.
    static func deleteTombstones(of table: ModelTable, expiredBy: Int, _ db: Database) throws -> Int {
        // The tables are WITHOUT ROWID: rows are deleted by their primary key tuple.
        let key = table.primaryKey.map { table.columns[$0].quoted }.joined(separator: ", ")
        let statement = try db.cachedStatement(sql: """
            DELETE FROM \(table.quotedName) WHERE (\(key)) IN (
                SELECT \(key) FROM \(table.quotedName) WHERE "_deleted" = 1 AND "_ttl" <= ? LIMIT \(batchSize)
            )
            """)
        try statement.execute(arguments: [expiredBy])
        return db.changesCount
    }
}
