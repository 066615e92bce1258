import DeltaSyncSchema
import DeltaSyncStorage
import PostgresNIO

extension PostgresItemStore {
    /// PostgreSQL's plan of one page query (`EXPLAIN`), for checking that an index serves it.
    /// `forbidSequentialScan` (`enable_seqscan = off`) makes the planner use an index whenever
    /// one matches the query's expressions, whatever the table's size.
    package func explain(_ model: ModelSchema, _ query: ItemQuery, forbidSequentialScan: Bool = false) async throws -> String {
        let table = try catalog.table(for: model)
        let (sql, builder, _) = try PostgresTransaction.pageSQL(table, query)
        return try await transaction(.read) { tx in
            if forbidSequentialScan { try tx.connection.run("disable sequential scans", "SET LOCAL enable_seqscan = off") }
            return try tx.connection.run("explain a query", "EXPLAIN " + sql, builder).rows.map { try $0.column(0, String.self) ?? "" }
                .joined(separator: "\n")
        }
    }

    /// How many requests for this store's write lock wait now (for tests that must see a
    /// transaction queue for it). A bigint advisory key shows in `pg_locks` as its high and low
    /// 32 bits (`classid`, `objid`).
    package func waitingAdvisoryLocks() async throws -> Int {
        let key = UInt64(bitPattern: writeLockKey)
        let (high, low) = (Int(key >> 32), Int(key & 0xffff_ffff))
        return try await transaction(.read) { tx in
            var b = SQLBuilder()
            let sql = """
                SELECT count(*)::bigint FROM pg_locks WHERE locktype = 'advisory' AND NOT granted
                AND classid::bigint = \(b.bind(high)) AND objid::bigint = \(b.bind(low)) AND objsubid = 1
                """
            return try tx.connection.value(Int.self, "count waiting locks", sql, b) ?? 0
        }
    }
}
