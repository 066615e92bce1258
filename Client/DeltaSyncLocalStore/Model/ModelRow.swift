import DeltaSyncCore
import DeltaSyncSQLite
import GRDB

#if canImport(GRDBSQLite)
import GRDBSQLite
#else
import SQLite3
#endif

/// A stored row of a model, as a query steps over it. Generated models read their fields from
/// it by position (`init(row:)`), straight from SQLite: a query returning a thousand models
/// builds no intermediate ``Item`` dictionaries.
public struct ModelRow {
    /// What every row of a query shares. A model's `init(row:)` takes its row as an owned
    /// copy: holding the table by reference makes that one retain instead of one per
    /// reference the table holds.
    final class Source {
        let table: ModelTable
        let handle: SQLiteStatement
        /// The column and kind of each stored field, in schema order. Reading them through
        /// `table` copied the whole table value for every field.
        let fields: [(column: Int, kind: ColumnKind)]

        init(table: ModelTable, handle: SQLiteStatement) {
            self.table = table
            self.handle = handle
            fields = table.storedFieldColumns.map { ($0, table.columns[$0].kind) }
        }
    }

    let source: Source

    init(table: ModelTable, handle: SQLiteStatement) {
        source = Source(table: table, handle: handle)
    }

    /// The row's rowid, when the query selected it after the table's columns.
    var rowid: Int64 { sqlite3_column_int64(source.handle, Int32(source.table.columns.count)) }

    /// Every set column, sync metadata included.
    package var item: Item { source.table.item(from: source.handle) }

    /// The value of the model's stored field at `position` (schema order), `null` when unset.
    @usableFromInline func json(_ position: Int) -> JSONValue {
        let field = source.fields[position]
        return ModelTable.value(at: field.column, kind: field.kind, of: source.handle) ?? .null
    }

    /// A field's value for generated `init(row:)`; errors name the field as
    /// ``Item/field(_:of:)`` does.
    @inlinable public func field<FieldValue: ModelValue>(
        _ position: Int, _ name: String, of model: String
    ) throws(DataStoreError) -> FieldValue {
        try decodeField(json(position), name, of: model)
    }
}
