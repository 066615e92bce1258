import DeltaSyncStorage
import NIOPosix
import PostgresNIO

extension PostgresItemStore {
    /// Deletes deltas changed before `deltasBefore` (epoch ms) and tombstones whose `_ttl` is at
    /// or before `tombstonesExpiredBy` (epoch seconds), in write transactions of at most 500
    /// rows each, so mutations run between them. Only one instance purges a schema at a time
    /// (`pg_try_advisory_lock`): while another holds the purge lock this returns zero counts.
    public func purgeExpired(deltasBefore: Int, tombstonesExpiredBy: Int) async throws -> PurgeResult {
        try await withConnection { connection in
            try await self.threadPool.runIfActive { [catalog, writeLockKey, purgeLockKey] in
                var lock = SQLBuilder()
                let key = lock.bind(Int(purgeLockKey))
                guard try connection.value(Bool.self, "take the purge lock", "SELECT pg_try_advisory_lock(\(key))", lock) == true else {
                    return PurgeResult(deltas: 0, tombstones: 0)
                }
                defer { _ = try? connection.run("release the purge lock", "SELECT pg_advisory_unlock(\(key))", lock) }
                func batches(_ purpose: String, _ sql: (inout SQLBuilder) -> String) throws -> Int {
                    var total = 0
                    while true {
                        let deleted = try Self.inTransaction(connection, mode: .alone, lockKey: writeLockKey) { c in
                            var b = SQLBuilder()
                            return try c.run(purpose, sql(&b), b).metadata.rows ?? 0
                        }
                        total += deleted
                        if deleted < PostgresSyncLog.purgeBatchSize { return total }
                    }
                }
                var result = PurgeResult(deltas: 0, tombstones: 0)
                let delta = catalog.qualified(PostgresSyncLog.delta)
                // Deltas of every model in the log, including models the schema no longer has:
                // one seek per model in the (model, changed_at, seq) index.
                var model = ""
                while true {
                    var b = SQLBuilder()
                    let sql = "SELECT model FROM \(delta) WHERE model > \(b.bind(model)) ORDER BY model LIMIT 1"
                    guard let next = try connection.value(String.self, "find the models of the delta log", sql, b) else { break }
                    result.deltas += try batches("purge old deltas of \(next)") { b in
                        """
                        DELETE FROM \(delta) WHERE seq IN (
                            SELECT seq FROM \(delta) WHERE model = \(b.bind(next)) AND changed_at < \(b.bind(deltasBefore))
                            LIMIT \(PostgresSyncLog.purgeBatchSize))
                        """
                    }
                    model = next
                }
                for table in catalog.sortedTables {
                    result.tombstones += try batches("purge expired tombstones of \(table.name)") { b in
                        """
                        DELETE FROM \(table.qualifiedName) WHERE key IN (
                            SELECT key FROM \(table.qualifiedName) WHERE "_deleted" AND "_ttl" <= \(b.bind(tombstonesExpiredBy))
                            LIMIT \(PostgresSyncLog.purgeBatchSize))
                        """
                    }
                }
                return result
            }
        }
    }
}
