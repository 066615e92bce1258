import DeltaSyncCore
import DeltaSyncSQLite
import DeltaSyncStorage
import GRDB

/// Which rows one ``ItemQuery`` page reads, in which order, and how the next page resumes
/// (keyset pagination: strictly after the last row read, by a row-value comparison).
struct PagePlan {
    /// Row conditions besides the filter: partition, sparse-index, sort key and resume point.
    private(set) var conditions: [SQLFragment] = []
    /// The columns of ``ItemPage/lastEvaluated``: the item's key, plus the index's own key
    /// columns for a secondary index (DynamoDB's `LastEvaluatedKey`).
    let cursor: [Int]
    /// The ORDER BY columns: ``cursor`` without the partition, which is fixed.
    let order: [Int]
    let descending: Bool

    /// - Throws: ``AppSyncError``: `InvalidArgumentException` for an unknown index, a
    ///   malformed sort key condition or a foreign `after` cursor; `ValidationException` for a
    ///   key value that does not fit its field.
    init(table: ModelTable, query: ItemQuery) throws {
        descending = query.descending
        let access = try PageAccess(
            query, table: table.name, primaryKey: table.primaryKey, columnName: { table.columns[$0].name },
            index: { name in table.indexes[name].map { PageAccess.Index(partition: $0.partition, sortKeys: $0.sortKeys, columns: $0.columns) } },
            indexNames: { Array(table.indexes.keys) })
        cursor = access.cursor
        order = access.order
        let partition = access.partition, sortKeys = access.sortKeys, condition = access.condition
        conditions += access.required.map { SQLFragment("\(table.columns[$0].quoted) IS NOT NULL") }

        var partitionArgument: DatabaseValue?
        if let partition {
            let argument = try table.encode(partition.value, column: partition.column)
            conditions.append(SQLFragment("\(table.columns[partition.column].quoted) = ?", [argument]))
            partitionArgument = argument
        }
        if let condition {
            conditions.append(try Self.sortKeySQL(condition, on: sortKeys, in: table))
        }
        if let within = query.within {
            // A plain `IN` on the column, which an index on it serves (owner fields have one).
            guard let column = table.column(named: within.field) else {
                throw AppSyncError(.invalidArgument, "\(table.name) has no field '\(within.field)'.")
            }
            let values = try within.values.map { try table.encode($0, column: column) }
            conditions.append(SQLFragment(
                "\(table.columns[column].quoted) IN (\(ModelTable.placeholders(values.count)))", values))
        }
        if let after = query.after {
            conditions.append(try resumeSQL(after, partition: partition?.column, partitionArgument, in: table))
        }
    }

    /// `ORDER BY` clause body.
    func orderSQL(in table: ModelTable) -> String {
        order.map { "\(table.columns[$0].quoted) \(descending ? "DESC" : "ASC")" }.joined(separator: ", ")
    }

    // MARK: - Resuming

    private func resumeSQL(
        _ after: [JSONValue], partition: Int?, _ partitionArgument: DatabaseValue?, in table: ModelTable
    ) throws -> SQLFragment {
        let foreign = AppSyncError(.invalidArgument, "The nextToken does not belong to this query on \(table.name). Pass the token the previous page returned, with the same arguments.")
        guard after.count == cursor.count else { throw foreign }
        var values: [DatabaseValue] = []
        for (column, value) in zip(cursor, after) {
            guard let argument = Self.cursorArgument(value) else { throw foreign }
            if column == partition {
                guard argument == partitionArgument else { throw foreign }
            } else {
                values.append(argument)
            }
        }
        // A query on a key without sort fields reads at most one row: nothing follows it.
        guard !order.isEmpty else { return .false }
        let columns = order.map { table.columns[$0].quoted }.joined(separator: ", ")
        return SQLFragment("(\(columns)) \(descending ? "<" : ">") (\(ModelTable.placeholders(values.count)))", values)
    }

    /// A cursor value as it was stored (``ColumnKind/decode(_:)`` read it from the row).
    private static func cursorArgument(_ value: JSONValue) -> DatabaseValue? {
        switch value {
        case .int(let i): return Int64(i).databaseValue
        case .double(let d): return d.databaseValue
        case .string(let s): return s.databaseValue
        case .bool(let b): return Int64(b ? 1 : 0).databaseValue
        case .null, .array, .object: return nil
        }
    }

    // MARK: - Sort key conditions

    /// The condition on a prefix of the sort key columns, compared as a tuple (SQL row values).
    private static func sortKeySQL(_ condition: SortKeyCondition, on sortKeys: [Int], in table: ModelTable) throws -> SQLFragment {
        func values(_ values: [JSONValue]) throws -> (columns: [Int], arguments: [DatabaseValue]) {
            guard !values.isEmpty, values.count <= sortKeys.count else {
                throw AppSyncError(.invalidArgument, "A sort key condition on \(table.name) takes 1 to \(sortKeys.count) values (one per sort key field, in order); it got \(values.count).")
            }
            let columns = Array(sortKeys.prefix(values.count))
            let arguments = try zip(columns, values).map { column, value in
                guard !value.isNull else {
                    throw AppSyncError(.invalidArgument, "The sort key condition on \(table.name) gives null for '\(table.columns[column].name)'; give a value.")
                }
                return try table.encode(value, column: column)
            }
            return (columns, arguments)
        }
        func compare(_ op: String, _ given: [JSONValue]) throws -> SQLFragment {
            let (columns, arguments) = try values(given)
            let tuple = columns.map { table.columns[$0].quoted }.joined(separator: ", ")
            return SQLFragment("(\(tuple)) \(op) (\(ModelTable.placeholders(arguments.count)))", arguments)
        }

        switch condition {
        case .eq(let v): return try compare("=", v)
        case .lt(let v): return try compare("<", v)
        case .le(let v): return try compare("<=", v)
        case .gt(let v): return try compare(">", v)
        case .ge(let v): return try compare(">=", v)
        case .between(let lo, let hi): return .and([try compare(">=", lo), try compare("<=", hi)])
        case .beginsWith(let v):
            let (columns, _) = try values(v)
            let last = table.columns[columns[columns.count - 1]]
            guard let prefix = v.last?.stringValue, last.kind == .text || last.kind == .jsonString else {
                throw AppSyncError(.invalidArgument, "beginsWith on \(table.name) needs a string sort key field and a string value; '\(last.name)' holds \(last.kind.expectation).")
            }
            var parts = v.count > 1 ? [try compare("=", Array(v.dropLast()))] : []
            parts.append(.startsWith(last.quoted, prefix))
            return .and(parts)
        }
    }
}
