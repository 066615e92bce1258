import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncStorage

// What PostgreSQL does for a page: `EXPLAIN (ANALYZE, FORMAT JSON)` of the very statement the
// page runs (``PostgresTransaction/pageSQL(_:_:)``, ``PostgresTransaction/deltasSQL(_:_:)``),
// with the same values, in the same transaction. ANALYZE runs the statement again (its rows are
// counted, not sent), so the report is what PostgreSQL did, not what it estimated; `TIMING OFF`
// spares the clock reads per row, which only timings need.
extension PostgresTransaction {
    func queryPlan(_ model: ModelSchema, _ query: ItemQuery) throws -> QueryPlanReport? {
        let table = try catalog.table(for: model)
        let (sql, builder, _) = try Self.pageSQL(table, query)
        var names = [table.primaryIndex.sqlName: "primary"]
        for index in table.indexes.values { names[index.sqlName] = index.name }
        return try PostgresQueryPlan.explain(sql, builder, on: connection, relation: table.name, purpose: "explain a query of \(model.name)") {
            // `<Model>_pkey` is the unique index on the `key` column, which gets and upserts probe.
            names[$0] ?? ($0.hasSuffix("_pkey") ? "primary" : $0)
        }
    }

    func deltaPlan(_ model: ModelSchema, _ query: DeltaQuery) throws -> QueryPlanReport? {
        _ = try catalog.table(for: model)  // a model this store holds
        let (sql, builder) = try deltasSQL(model, query)
        return try PostgresQueryPlan.explain(
            sql, builder, on: connection, relation: PostgresSyncLog.delta, purpose: "explain a delta query of \(model.name)"
        ) { $0 == "deltasync_delta_by_change" ? "changedAt" : $0 }
    }
}

extension PostgresItemStore {
    /// Refreshes PostgreSQL's statistics of the store's tables (`ANALYZE`), which autovacuum
    /// otherwise does some time after a large change. The planner chooses between an index and
    /// a sequential scan from them: a test that loads rows and then checks the plan runs this
    /// first, as an operator would after a bulk load.
    ///
    /// ```swift
    /// try await store.write { tx in for item in items { try tx.put(post, item) } }
    /// try await store.analyze()
    /// ```
    package func analyze() async throws {
        try await write { [catalog] tx in
            guard let tx = tx as? PostgresTransaction else {
                throw AppSyncError(.internalFailure, "A PostgresItemStore write handed out a transaction of another store.")
            }
            for name in catalog.sortedTables.map(\.qualifiedName) + [catalog.qualified(PostgresSyncLog.delta)] {
                try tx.connection.run("analyze \(name)", "ANALYZE \(name)")
            }
        }
    }
}

/// Reads PostgreSQL's JSON plan: a tree of nodes (`Node Type`, `Plans`), each with its actual
/// row count per loop (`Actual Rows`, `Actual Loops`) and, on a node that reads a table
/// (`Relation Name`), the rows its conditions removed (`Rows Removed by Filter`, `… by Index
/// Recheck`).
package enum PostgresQueryPlan {
    /// Runs `EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON)` of `sql` and reports how it read
    /// `relation` (an unqualified table name).
    ///
    /// - Parameter indexName: DeltaSync's name of a PostgreSQL index of `relation`.
    static func explain(
        _ sql: String, _ builder: SQLBuilder, on connection: BlockingSession, relation: String, purpose: String,
        indexName: (String) -> String
    ) throws -> QueryPlanReport {
        let text = try connection.value(String.self, purpose, "EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON) " + sql, builder) ?? ""
        guard let parsed = try? JSONValue(parsing: text), case .object(let root)? = parsed.arrayValue?.first,
            case .object(let plan)? = root["Plan"]
        else {
            throw AppSyncError(.internalFailure, "PostgreSQL answered EXPLAIN with something other than a JSON plan: \(text.prefix(200))")
        }
        return report(plan, relation: relation, indexName: indexName)
    }

    /// The report of a plan's root node (one element of EXPLAIN's JSON array, its `Plan`).
    package static func report(_ plan: [String: JSONValue], relation: String, indexName: (String) -> String) -> QueryPlanReport {
        var lines: [String] = []
        var reads: [(access: QueryPlanReport.Access, index: String?)] = []
        var rowsRead = 0.0
        func visit(_ node: [String: JSONValue], depth: Int) {
            lines.append(String(repeating: "  ", count: depth) + line(node))
            let children = (node["Plans"]?.arrayValue ?? []).compactMap(\.objectValue)
            if node["Relation Name"]?.stringValue == relation {
                let loops = node["Actual Loops"]?.doubleValue ?? 1
                let rows = ["Actual Rows", "Rows Removed by Filter", "Rows Removed by Index Recheck"]
                    .reduce(0.0) { $0 + (node[$1]?.doubleValue ?? 0) }
                rowsRead += rows * loops
                switch node["Node Type"]?.stringValue {
                case "Seq Scan", "Sample Scan", "Tid Scan", "Tid Range Scan":
                    reads.append((.scan, nil))
                case "Bitmap Heap Scan":
                    // The index is on the Bitmap Index Scan below (the first of a BitmapAnd/Or).
                    reads.append((.index, firstIndex(children).map(indexName)))
                default:
                    reads.append((.index, node["Index Name"]?.stringValue.map(indexName)))
                }
            }
            for child in children { visit(child, depth: depth + 1) }
        }
        visit(plan, depth: 0)
        let read = reads.first { $0.access == .index } ?? reads.first ?? (.scan, nil)
        return QueryPlanReport(
            engine: "postgresql", access: read.access, index: read.index, rowsRead: Int(rowsRead.rounded()),
            detail: lines.joined(separator: "\n"))
    }

    private static func firstIndex(_ nodes: [[String: JSONValue]]) -> String? {
        for node in nodes {
            if let name = node["Index Name"]?.stringValue { return name }
            if let name = firstIndex((node["Plans"]?.arrayValue ?? []).compactMap(\.objectValue)) { return name }
        }
        return nil
    }

    /// One node as PostgreSQL's text format heads it, with its conditions on the same line:
    /// `Index Scan using Post.byBlog on Post (actual rows=3 loops=1) Index Cond: (…)`.
    static func line(_ node: [String: JSONValue]) -> String {
        var text = node["Node Type"]?.stringValue ?? "?"
        if node["Scan Direction"]?.stringValue == "Backward" { text += " Backward" }
        if let index = node["Index Name"]?.stringValue { text += " using \(index)" }
        if let relation = node["Relation Name"]?.stringValue { text += " on \(relation)" }
        func count(_ key: String) -> String {
            guard let value = node[key]?.doubleValue else { return "?" }
            return value.rounded() == value ? String(Int(value)) : String(value)
        }
        text += " (actual rows=\(count("Actual Rows")) loops=\(count("Actual Loops")))"
        for key in ["Index Cond", "Recheck Cond", "Filter"] {
            if let condition = node[key]?.stringValue { text += " \(key): \(condition)" }
        }
        if let keys = node["Sort Key"]?.arrayValue {
            text += " Sort Key: " + keys.compactMap(\.stringValue).joined(separator: ", ")
        }
        for key in ["Rows Removed by Filter", "Rows Removed by Index Recheck"] {
            if let removed = node[key]?.doubleValue, removed > 0 { text += " \(key): \(count(key))" }
        }
        return text
    }
}
