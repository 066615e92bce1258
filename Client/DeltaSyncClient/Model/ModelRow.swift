import DeltaSyncCore
import DeltaSyncSQLite
import GRDB

/// A stored row of a model, as a query steps over it. Generated models read their fields from
/// it by position (`init(row:)`), straight from SQLite: a query returning a thousand models
/// builds no intermediate ``Item`` dictionaries.
public struct ModelRow {
    let table: ModelTable
    let handle: SQLiteStatement

    /// Every set column, sync metadata included.
    var item: Item { table.item(from: handle) }

    /// The value of the model's stored field at `position` (schema order), `null` when unset.
    @usableFromInline func json(_ position: Int) -> JSONValue {
        table.value(at: table.storedFieldColumns[position], of: handle) ?? .null
    }

    /// A field's value for generated `init(row:)`; errors name the field as
    /// ``Item/field(_:of:)`` does.
    @inlinable public func field<FieldValue: ModelValue>(
        _ position: Int, _ name: String, of model: String
    ) throws(DataStoreError) -> FieldValue {
        try decodeField(json(position), name, of: model)
    }
}
