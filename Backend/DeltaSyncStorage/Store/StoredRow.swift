import DeltaSyncCore
import DeltaSyncSchema

/// One item of a page as the store reads it, by the fields the reader named once for the page
/// (``ItemReadTransaction/query(_:_:fields:rows:)``): a field's value is read, or written as
/// JSON, straight from the row, and the item is built only when asked for.
///
/// A base sync page is a thousand items of a dozen fields; building each item (a dictionary,
/// every field name hashed) and looking its fields up again to write them cost more than
/// reading the rows. Valid only inside the body it was given to: the row is the store's cursor.
///
///     var titles: [UInt8] = []
///     let end = try tx.query(post, ItemQuery(limit: 50), fields: ["id", "title"]) { row in
///         _ = row.writeJSON(at: 1, into: &titles)  // the title, or nothing when it has none
///     }
public protocol StoredRow {
    /// The value of the field at `slot` of the page's fields; `nil` when it has none.
    func value(at slot: Int) -> JSONValue?

    /// Writes the value of the field at `slot` as ``JSONWriter/write(_:to:)`` writes
    /// ``value(at:)``; `false`, having written nothing, when it has none (or it is `null`).
    func writeJSON(at slot: Int, into out: inout [UInt8]) -> Bool

    /// The whole item, as ``ItemReadTransaction/query(_:_:each:)`` hands it.
    func item() -> Item
}

/// A ``StoredRow`` over an item already built: what stores that read whole items give.
public struct ItemRow: StoredRow {
    public let wrapped: Item
    /// The page's fields, by slot.
    public let fields: [String]

    public init(_ item: Item, fields: [String]) {
        self.wrapped = item
        self.fields = fields
    }

    public func value(at slot: Int) -> JSONValue? {
        guard let value = wrapped[fields[slot]], !value.isNull else { return nil }
        return value
    }

    public func writeJSON(at slot: Int, into out: inout [UInt8]) -> Bool {
        guard let value = value(at: slot) else { return false }
        JSONWriter.write(value, to: &out)
        return true
    }

    public func item() -> Item { wrapped }
}

extension ItemReadTransaction {
    /// ``query(_:_:each:)``, each item handed over as an ``ItemRow``. SQLite reads its columns
    /// without building the item.
    public func query(_ model: ModelSchema, _ query: ItemQuery, fields: [String], rows body: (any StoredRow) throws -> Void) throws -> PageEnd {
        try self.query(model, query) { item in try body(ItemRow(item, fields: fields)) }
    }
}
