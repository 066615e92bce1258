import DeltaSyncCore
import DeltaSyncModelSchema
import GRDB

/// The SQL text of a model's table: its definition, indexes and batched inserts.
extension ModelTable {
    /// How a table stores its rows. Every statement of ``ModelTable`` works on both but
    /// ``insertIfAbsent(_:using:in:)``, which needs rowids.
    package enum Layout: Sendable {
        /// Rows clustered by primary key (`WITHOUT ROWID`), the server's: a get is one B-tree
        /// search and a scan reads in key order (base sync pages), its two hot paths.
        case clusteredByKey
        /// A rowid table whose primary key is a unique index, the device's. New rows are
        /// appended instead of going between others, and a secondary index finds its rows by
        /// rowid instead of by key: applying sync pages and querying through an `@index`, the
        /// device's hot paths, are faster (about 6% and 10%), a `save` writes one more index.
        case rowid
    }

    /// `CREATE TABLE` for this table, under another name (a rebuild's scratch table) and with
    /// more columns (kept values of removed fields) when given.
    package func createTableSQL(named name: String? = nil, extraColumns: [String] = [], layout: Layout = .clusteredByKey) -> String {
        let definitions = columns.map(definition(of:)) + extraColumns
        let key = primaryKey.map { columns[$0].quoted }.joined(separator: ", ")
        switch layout {
        case .clusteredByKey:
            return "CREATE TABLE \(name ?? quotedName) (\(definitions.joined(separator: ", ")), PRIMARY KEY (\(key))) WITHOUT ROWID"
        case .rowid:
            return "CREATE TABLE \(name ?? quotedName) (\(definitions.joined(separator: ", ")), UNIQUE (\(key)))"
        }
    }

    /// A column's definition in `CREATE TABLE` or `ADD COLUMN`.
    package func definition(of column: Column) -> String {
        var sql = "\(column.quoted) \(column.kind.sqlType)"
        if column.name == "_version" {
            sql += " NOT NULL DEFAULT 1"
        } else if primaryKey.contains(where: { columns[$0].name == column.name }) {
            sql += " NOT NULL"
        }
        return sql
    }

    package func createIndexSQL(_ index: SecondaryIndex, layout: Layout = .clusteredByKey) -> String {
        // In a rowid table every index entry ends with the rowid, which orders equal sort keys.
        let indexed = layout == .rowid ? [index.partition] + index.sortKeys : index.columns
        let list = indexed.map { columns[$0].quoted }.joined(separator: ", ")
        return "CREATE INDEX \(index.sqlName.quotedDatabaseIdentifier) ON \(quotedName) (\(list))"
    }

    /// ``insertSQL`` for `rows` rows at once that leaves a row whose key exists alone: what
    /// ``insertIfAbsent(_:using:in:)`` runs.
    package func insertIfAbsentSQL(rows: Int) -> String {
        let row = "(\(Self.placeholders(columns.count)))"
        return "INSERT OR IGNORE INTO \(quotedName) (\(selectList)) VALUES \(Array(repeating: row, count: rows).joined(separator: ", "))"
    }

    /// `?, ?, ?`
    package static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }
}
