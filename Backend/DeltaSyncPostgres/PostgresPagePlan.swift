import DeltaSyncCore
import DeltaSyncStorage

/// Which rows one ``ItemQuery`` page reads, in which order, and how the next page resumes:
/// the SQLite store's `PagePlan` over the typed expressions of ``PostgresModelTable``, so each
/// condition and the `ORDER BY` are what the matching expression index serves.
struct PostgresPagePlan {
    /// Row conditions besides the filter: partition, sparse-index, sort key, `within`, resume.
    private(set) var conditions: [String] = []
    /// The columns of ``PageEnd/lastEvaluated``: the item's key, plus the index's own key
    /// columns for a secondary index (DynamoDB's `LastEvaluatedKey`).
    let cursor: [Int]
    /// The `ORDER BY` columns: ``cursor`` without the partition, which is fixed.
    let order: [Int]
    let descending: Bool

    init(table: PostgresModelTable, query: ItemQuery, _ b: inout SQLBuilder) throws {
        descending = query.descending
        let access = try PageAccess(
            query, table: table.name, primaryKey: table.primaryKey, columnName: { table.columns[$0].name },
            index: { name in table.indexes[name].map { PageAccess.Index(partition: $0.partition, sortKeys: $0.sortKeys, columns: $0.columns) } },
            indexNames: { Array(table.indexes.keys) })
        cursor = access.cursor
        order = access.order
        let partition = access.partition, sortKeys = access.sortKeys, condition = access.condition
        conditions += access.required.map { "\(table.expression($0)) IS NOT NULL" }

        var partitionValue: JSONValue?
        if let partition {
            partitionValue = try table.encode(partition.value, column: partition.column)
            conditions.append("\(table.expression(partition.column)) = \(try table.bind(partition.value, column: partition.column, &b))")
        }
        if let condition {
            conditions.append(try Self.sortKeySQL(condition, on: sortKeys, in: table, &b))
        }
        if let within = query.within {
            guard let column = table.columnIndex[within.field] else {
                throw AppSyncError(.invalidArgument, "\(table.name) has no field '\(within.field)'.")
            }
            let values = try within.values.map { try table.bind($0, column: column, &b) }
            conditions.append(values.isEmpty ? "false" : "\(table.expression(column)) IN (\(values.joined(separator: ", ")))")
        }
        if let after = query.after {
            conditions.append(try resumeSQL(after, partition: partition?.column, partitionValue, in: table, &b))
        }
    }

    /// `ORDER BY` clause body.
    func orderSQL(in table: PostgresModelTable) -> String {
        order.map { "\(table.expression($0)) \(descending ? "DESC" : "ASC")" }.joined(separator: ", ")
    }

    /// The cursor's values of a row, as one jsonb array (parsed into ``PageEnd/lastEvaluated``).
    func cursorSQL(in table: PostgresModelTable) -> String {
        "jsonb_build_array(" + cursor.map { "item->\(PostgresSQL.literal(table.columns[$0].name))" }.joined(separator: ", ") + ")::text"
    }

    // MARK: - Resuming

    private func resumeSQL(
        _ after: [JSONValue], partition: Int?, _ partitionValue: JSONValue?, in table: PostgresModelTable, _ b: inout SQLBuilder
    ) throws -> String {
        let foreign = AppSyncError(.invalidArgument, "The nextToken does not belong to this query on \(table.name). Pass the token the previous page returned, with the same arguments.")
        guard after.count == cursor.count else { throw foreign }
        var values: [String] = []
        for (column, value) in zip(cursor, after) {
            guard !value.isNull, let encoded = try? table.encode(value, column: column) else { throw foreign }
            if column == partition {
                guard encoded == partitionValue else { throw foreign }
            } else {
                values.append(try table.bind(encoded, column: column, &b))
            }
        }
        // A query on a key without sort fields reads at most one row: nothing follows it.
        guard !order.isEmpty else { return "false" }
        let columns = order.map { table.expression($0) }.joined(separator: ", ")
        return "(\(columns)) \(descending ? "<" : ">") (\(values.joined(separator: ", ")))"
    }

    // MARK: - Sort key conditions

    /// The condition on a prefix of the sort key columns, compared as a tuple (row values).
    private static func sortKeySQL(
        _ condition: SortKeyCondition, on sortKeys: [Int], in table: PostgresModelTable, _ b: inout SQLBuilder
    ) throws -> String {
        func values(_ values: [JSONValue]) throws -> (columns: [Int], placeholders: [String]) {
            guard !values.isEmpty, values.count <= sortKeys.count else {
                throw AppSyncError(.invalidArgument, "A sort key condition on \(table.name) takes 1 to \(sortKeys.count) values (one per sort key field, in order); it got \(values.count).")
            }
            let columns = Array(sortKeys.prefix(values.count))
            let placeholders = try zip(columns, values).map { column, value in
                guard !value.isNull else {
                    throw AppSyncError(.invalidArgument, "The sort key condition on \(table.name) gives null for '\(table.columns[column].name)'; give a value.")
                }
                return try table.bind(value, column: column, &b)
            }
            return (columns, placeholders)
        }
        func compare(_ op: String, _ given: [JSONValue]) throws -> String {
            let (columns, placeholders) = try values(given)
            let tuple = columns.map { table.expression($0) }.joined(separator: ", ")
            return "(\(tuple)) \(op) (\(placeholders.joined(separator: ", ")))"
        }
        switch condition {
        case .eq(let v): return try compare("=", v)
        case .lt(let v): return try compare("<", v)
        case .le(let v): return try compare("<=", v)
        case .gt(let v): return try compare(">", v)
        case .ge(let v): return try compare(">=", v)
        case .between(let lo, let hi): return "(\(try compare(">=", lo)) AND \(try compare("<=", hi)))"
        case .beginsWith(let v):
            guard !v.isEmpty, v.count <= sortKeys.count else { _ = try values(v); return "false" }
            let last = sortKeys[v.count - 1]
            let kind = table.columns[last].kind
            guard let prefix = v.last?.stringValue, kind == .text || kind == .jsonString else {
                throw AppSyncError(.invalidArgument, "beginsWith on \(table.name) needs a string sort key field and a string value; '\(table.columns[last].name)' holds \(kind.expectation).")
            }
            var parts = v.count > 1 ? [try compare("=", Array(v.dropLast()))] : []
            let placeholder = try table.bind(.string(prefix), column: last, &b)
            // The lower bound lets the index range start at the prefix; `starts_with` (in the
            // expression's C collation) is the byte-exact test.
            parts.append("\(table.expression(last)) >= \(placeholder)")
            parts.append("starts_with(\(table.expression(last)), \(placeholder))")
            return "(" + parts.joined(separator: " AND ") + ")"
        }
    }
}
