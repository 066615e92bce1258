import DeltaSyncCore
import DeltaSyncSQLite
import GRDB

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

        init(table: ModelTable, handle: SQLiteStatement) {
            self.table = table
            self.handle = handle
        }
    }

    let source: Source

    init(table: ModelTable, handle: SQLiteStatement) {
        source = Source(table: table, handle: handle)
    }

    /// Every set column, sync metadata included.
    var item: Item { source.table.item(from: source.handle) }

    /// The value of the model's stored field at `position` (schema order), `null` when unset.
    @usableFromInline func json(_ position: Int) -> JSONValue {
        source.table.value(at: source.table.storedFieldColumns[position], of: source.handle) ?? .null
    }

    /// A field's value for generated `init(row:)`; errors name the field as
    /// ``Item/field(_:of:)`` does.
    @inlinable public func field<FieldValue: ModelValue>(
        _ position: Int, _ name: String, of model: String
    ) throws(DataStoreError) -> FieldValue {
        try decodeField(json(position), name, of: model)
    }
}
