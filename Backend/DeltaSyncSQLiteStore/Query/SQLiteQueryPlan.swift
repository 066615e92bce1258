import DeltaSyncCore
import DeltaSyncSQLite
import DeltaSyncSchema
import DeltaSyncStorage
import GRDB

// What SQLite does for a page: `EXPLAIN QUERY PLAN` of the very statement the page runs
// (``SQLiteTransaction/pageSQL(_:_:)``, ``SQLiteTransaction/deltasSQL(_:_:)``), with the same
// arguments. SQLite does not count rows read, so ``QueryPlanReport/rowsRead`` is `nil`.
extension SQLiteTransaction {
    func queryPlan(_ model: ModelSchema, _ query: ItemQuery) throws -> QueryPlanReport? {
        let table = try catalog.table(for: model)
        let (sql, arguments, _) = try Self.pageSQL(table, query)
        var names: [String: String] = [:]
        for index in table.indexes.values { names[index.sqlName] = index.name }
        return try SQLiteQueryPlan.explain(sql, arguments, in: db, table: table.name) { sqlName in
            // A table laid out by rowid keeps its key unique in an automatic index.
            names[sqlName] ?? (sqlName.hasPrefix("sqlite_autoindex_") ? "primary" : sqlName)
        }
    }

    func deltaPlan(_ model: ModelSchema, _ query: DeltaQuery) throws -> QueryPlanReport? {
        _ = try catalog.table(for: model)  // a model this store holds
        let (sql, arguments) = try Self.deltasSQL(model, query)
        return try SQLiteQueryPlan.explain(sql, arguments, in: db, table: SyncLogTables.delta) { sqlName in
            sqlName == "deltasync_delta_by_change" ? "changedAt" : sqlName
        }
    }
}

/// Reads SQLite's `EXPLAIN QUERY PLAN` rows (`id`, `parent`, `notused`, `detail`). The lines
/// that read a table say how: `SCAN Post` (the table itself, in key order for a clustered
/// table), `SEARCH Post USING INDEX Post.byBlog (blogId=?)`, `SEARCH Post USING PRIMARY KEY
/// (id>?)`, `SCAN Post USING COVERING INDEX …`. Versions before 3.36 wrote `SCAN TABLE Post`.
enum SQLiteQueryPlan {
    /// - Parameter indexName: DeltaSync's name of an SQLite index of `table`.
    static func explain(
        _ sql: String, _ arguments: StatementArguments, in db: Database, table: String, indexName: (String) -> String
    ) throws -> QueryPlanReport {
        let rows = try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments)
        var depth: [Int: Int] = [:]
        var lines: [String] = []
        var reads: [(access: QueryPlanReport.Access, index: String?)] = []
        for row in rows {
            let id: Int = row["id"]
            let parent: Int = row["parent"]
            let detail: String = row["detail"]
            let level = depth[parent].map { $0 + 1 } ?? 0
            depth[id] = level
            lines.append(String(repeating: "  ", count: level) + detail)
            if let read = Self.read(detail, table: table, indexName: indexName) { reads.append(read) }
        }
        let read = reads.first { $0.access == .index } ?? reads.first ?? (.scan, nil)
        return QueryPlanReport(engine: "sqlite", access: read.access, index: read.index, rowsRead: nil, detail: lines.joined(separator: "\n"))
    }

    /// How one plan line reads `table`, or `nil` for a line that reads no table or another one.
    static func read(_ detail: String, table: String, indexName: (String) -> String) -> (access: QueryPlanReport.Access, index: String?)? {
        var rest = Substring(detail)
        if rest.hasPrefix("SCAN ") {
            rest = rest.dropFirst(5)
        } else if rest.hasPrefix("SEARCH ") {
            rest = rest.dropFirst(7)
        } else {
            return nil
        }
        if rest.hasPrefix("TABLE ") { rest = rest.dropFirst(6) }
        let name = rest.prefix { $0 != " " }
        guard name == table else { return nil }
        guard let using = rest.range(of: " USING ") else { return (.scan, nil) }
        let how = rest[using.upperBound...]
        for prefix in ["INDEX ", "COVERING INDEX "] where how.hasPrefix(prefix) {
            return (.index, indexName(String(how.dropFirst(prefix.count).prefix { $0 != " " })))
        }
        // `PRIMARY KEY` (a clustered table's key), `INTEGER PRIMARY KEY` / `ROWID` (the rowid).
        return (.index, "primary")
    }
}
