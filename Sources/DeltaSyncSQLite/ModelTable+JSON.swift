import DeltaSyncCore
import DeltaSyncModelSchema
import GRDB

#if canImport(GRDBSQLite)
import GRDBSQLite
#else
import SQLite3
#endif

/// Writing a column's value as JSON without decoding it to a `JSONValue` first: integers,
/// booleans and text fields (most of a model's fields) go straight from SQLite's buffers to
/// the response.
extension ModelTable {
    /// Writes the value of the column at `index` of the row `handle` is stepped on as
    /// `JSONWriter.write` writes ``value(at:of:)``; `false`, having written nothing, for NULL.
    package func writeJSON(at index: Int, of handle: SQLiteStatement, into out: inout [UInt8]) -> Bool {
        let position = Int32(index)
        let kind = columns[index].kind
        switch (sqlite3_column_type(handle, position), kind) {
        case (SQLITE_INTEGER, .boolean):
            JSONWriter.writeBool(sqlite3_column_int64(handle, position) != 0, to: &out)
        case (SQLITE_INTEGER, _):
            JSONWriter.writeInt(Int(sqlite3_column_int64(handle, position)), to: &out)
        case (SQLITE_TEXT, .text), (SQLITE_TEXT, .jsonString):
            // Both read back as the string stored (``FieldKind/decode(utf8:)``).
            guard let text = sqlite3_column_text(handle, position) else { return false }
            let count = Int(sqlite3_column_bytes(handle, position))
            JSONWriter.writeString(utf8: UnsafeBufferPointer(start: text, count: count), to: &out)
        default:
            guard let value = value(at: index, of: handle) else { return false }
            JSONWriter.write(value, to: &out)
        }
        return true
    }
}
