import DeltaSyncCore
import DeltaSyncModelSchema
import GRDB

#if canImport(GRDBSQLite)
import GRDBSQLite
#else
import SQLite3
#endif

/// Reading rows with SQLite's C API, on statements GRDB prepared and steps.
extension ModelTable {
    /// The item of the row `statement` is stepped on: every non-null column, decoded by its
    /// kind. The statement's result must start with the columns of ``selectList``.
    ///
    /// Reads the columns with SQLite's C API: base sync pages decode a thousand rows per
    /// request, and going through `DatabaseValue` for each column was half the cost of a page.
    package func item(from statement: Statement) -> Item {
        item(from: statement.sqliteStatement)
    }

    /// ``item(from:)-(Statement)`` for a statement handle.
    package func item(from handle: SQLiteStatement) -> Item {
        var item = Item(minimumCapacity: columns.count)
        for (i, column) in columns.enumerated() {
            // NULL (and blobs, which nothing in this store writes) are left out.
            if let value = value(at: i, of: handle) { item[column.name] = value }
        }
        return item
    }

    /// The value of the column at `index` in the row `handle` is stepped on, decoded by the
    /// column's kind; `nil` for NULL.
    package func value(at index: Int, of handle: SQLiteStatement) -> JSONValue? {
        Self.value(at: index, kind: columns[index].kind, of: handle)
    }

    /// ``value(at:of:)`` for a column of `kind`.
    package static func value(at index: Int, kind: ColumnKind, of handle: SQLiteStatement) -> JSONValue? {
        let position = Int32(index)
        switch sqlite3_column_type(handle, position) {
        case SQLITE_INTEGER:
            let value = sqlite3_column_int64(handle, position)
            if case .boolean = kind { return .bool(value != 0) }
            return .int(Int(value))
        case SQLITE_FLOAT:
            return .double(sqlite3_column_double(handle, position))
        case SQLITE_TEXT:
            guard let text = sqlite3_column_text(handle, position) else { return nil }
            let count = Int(sqlite3_column_bytes(handle, position))
            return kind.decode(utf8: UnsafeBufferPointer(start: text, count: count))
        default:
            return nil
        }
    }

    /// The key of the row `handle` is stepped on, as ``key(of:)`` gives it for an item; the
    /// statement's result starts with the key columns.
    func leadingKey(of handle: SQLiteStatement) -> JSONValue {
        primaryKey.count == 1 ? Self.keyValue(handle, 0) : .array(primaryKey.indices.map { Self.keyValue(handle, Int32($0)) })
    }

    /// A key column's value as ``key(of:)`` gives it for an item: keys are strings or
    /// integers.
    private static func keyValue(_ handle: SQLiteStatement, _ position: Int32) -> JSONValue {
        switch sqlite3_column_type(handle, position) {
        case SQLITE_INTEGER: return .int(Int(sqlite3_column_int64(handle, position)))
        case SQLITE_FLOAT: return .double(sqlite3_column_double(handle, position))
        case SQLITE_TEXT:
            guard let text = sqlite3_column_text(handle, position) else { return .null }
            let count = Int(sqlite3_column_bytes(handle, position))
            return .string(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        default: return .null
        }
    }

    /// The sync metadata in the three columns from `first` of the row `handle` is stepped on
    /// (`_version`, `_deleted`, `_lastChangedAt`).
    static func rowMetadata(of handle: SQLiteStatement, from first: Int32) -> RowMetadata {
        RowMetadata(
            version: sqlite3_column_type(handle, first) == SQLITE_NULL ? nil : Int(sqlite3_column_int64(handle, first)),
            deleted: sqlite3_column_int64(handle, first + 1) != 0,
            lastChangedAt: sqlite3_column_type(handle, first + 2) == SQLITE_NULL ? nil : Int(sqlite3_column_int64(handle, first + 2)))
    }
}

extension Statement {
    /// Whether the statement is between its first step and its reset: a cached statement that
    /// another cursor is still iterating cannot be reused for a second query.
    package var isStepping: Bool { sqlite3_stmt_busy(sqliteStatement) != 0 }
}
