import DeltaSyncCore
import DeltaSyncSQLite
import GRDB

/// The SQL of one local query: live rows (no tombstones) matching a predicate, sorted, paged.
struct LocalQuery {
    let sql: String
    let arguments: [DatabaseValue]

    /// - Parameter rowid: a name of the rowid to select after the table's columns (see
    ///   ``ObservedRows``), or `nil`.
    init(
        table: ModelTable, predicate: QueryPredicate, sort: [QuerySortDescriptor], paginate: QueryPaginationInput?,
        rowid: String? = nil
    ) throws {
        let filter = FilterCompiler(table: table).compile(predicate)
        let ranges = Self.indexableRanges(predicate, in: table)
        var sql = "SELECT \(table.selectList)\(rowid.map { ", " + $0 } ?? "") FROM \(table.quotedName) WHERE (\"_deleted\" IS NULL OR \"_deleted\" = 0)"
        for range in ranges { sql += " AND \(range.sql)" }
        sql += " AND \(filter.sql)"
        var arguments = ranges.flatMap(\.arguments) + filter.arguments
        if !sort.isEmpty {
            let order = try sort.map { descriptor in
                guard let index = table.column(named: descriptor.field) else {
                    throw DataStoreError.storage("\(table.name) has no field '\(descriptor.field)' to sort by. Sort by a stored field of the model.")
                }
                return "\(table.columns[index].quoted) \(descriptor.order == .ascending ? "ASC" : "DESC")"
            }
            sql += " ORDER BY " + order.joined(separator: ", ")
        }
        if let paginate {
            sql += " LIMIT ? OFFSET ?"
            arguments += [Int64(paginate.limit).databaseValue, Int64(paginate.page * paginate.limit).databaseValue]
        }
        self.sql = sql
        self.arguments = arguments
    }

    /// Plain comparisons SQLite can answer from an index, for the predicate's top-level
    /// conditions whose value has the column's own type. The compiled filter tests each
    /// value's type inside `CASE`, which keeps it exact but hides the column from the query
    /// planner; these repeat what the filter already requires in a form the planner can use.
    private static func indexableRanges(_ predicate: QueryPredicate, in table: ModelTable) -> [SQLFragment] {
        predicate.conjuncts.compactMap { part in
            guard case .field(let name, let op) = part, let index = table.column(named: name) else { return nil }
            let column = table.columns[index]
            func plain(_ value: JSONValue) -> DatabaseValue? {
                switch (column.kind, value) {
                // Text with a NUL is left to the filter, which binds it byte for byte.
                case (.text, .string(let s)) where !s.utf8.contains(0): return s.databaseValue
                case (.integer, .int(let i)): return Int64(i).databaseValue
                case (.real, .int(let i)): return Double(i).databaseValue
                case (.real, .double(let d)): return d.databaseValue
                default: return nil
                }
            }
            func compare(_ symbol: String, _ value: JSONValue) -> SQLFragment? {
                plain(value).map { SQLFragment("\(column.quoted) \(symbol) ?", [$0]) }
            }
            switch op {
            case .eq(let v): return compare("=", v)
            case .lt(let v): return compare("<", v)
            case .le(let v): return compare("<=", v)
            case .gt(let v): return compare(">", v)
            case .ge(let v): return compare(">=", v)
            case .between(let lo, let hi):
                guard let low = plain(lo), let high = plain(hi) else { return nil }
                return SQLFragment("\(column.quoted) BETWEEN ? AND ?", [low, high])
            default: return nil
            }
        }
    }
}
