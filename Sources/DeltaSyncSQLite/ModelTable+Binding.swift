import DeltaSyncCore
import DeltaSyncModelSchema
import GRDB

#if canImport(GRDBSQLite)
import GRDBSQLite
#else
import SQLite3
#endif

/// Binding values and running statements with SQLite's C API.
extension ModelTable {
    /// The sync metadata of the row with this key, `nil` when there is no row.
    ///
    /// - Parameter statement: prepared from ``selectMetadataByKeySQL``; a batch prepares it once.
    package func metadata(key: Item, using statement: Statement) throws -> RowMetadata? {
        let handle = statement.sqliteStatement
        sqlite3_reset(handle)
        for (position, column) in primaryKey.enumerated() {
            let value = key[columns[column].name] ?? .null
            guard !value.isNull else { throw missingKey(columns[column].name) }
            var scratch = TextScratch.none
            try bind(value, column: column, at: Int32(position + 1), to: handle, scratch: &scratch)
        }
        let code = sqlite3_step(handle)
        defer { sqlite3_reset(handle) }
        switch code {
        case SQLITE_DONE: return nil
        case SQLITE_ROW:
            return Self.rowMetadata(of: handle, from: 0)
        default:
            throw Self.error(code, statement)
        }
    }

    /// Binds `item` to an insert statement from ``insertSQL`` and runs it.
    ///
    /// Binds with SQLite's C API, as ``item(from:)`` reads: building GRDB's arguments cost more
    /// than the insert when a sync page applies a thousand records.
    func step(_ item: Item, using statement: Statement) throws {
        try run(statement) { scratch in
            try bind(item, after: 0, to: statement.sqliteStatement, scratch: &scratch)
        }
    }

    /// Runs `statement` once with the values `bindings` binds, which may copy text into
    /// `scratch`.
    ///
    /// Every parameter starts NULL (the statement is left without bindings after each run);
    /// only the values an item has are bound, which walks the item's few set fields instead of
    /// looking every column up in it.
    func run(_ statement: Statement, bindings: (inout TextScratch) throws -> Void) throws {
        let handle = statement.sqliteStatement
        sqlite3_reset(handle)
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: TextScratch.capacity) { buffer in
            // The bound text points into `buffer`: no binding may outlive it.
            defer {
                sqlite3_reset(handle)
                sqlite3_clear_bindings(handle)
            }
            var scratch = TextScratch(buffer: buffer)
            try bindings(&scratch)
            let code = sqlite3_step(handle)
            guard code == SQLITE_DONE else { throw Self.error(code, statement) }
        }
    }

    /// Binds the values of `item` to the parameters of one row, those after the first `offset`.
    func bind(_ item: Item, after offset: Int32, to handle: SQLiteStatement, scratch: inout TextScratch) throws {
        // Counted while binding: looking the key and version up again costs a hash each.
        var keysBound = 0
        var versionBound = false
        for (name, value) in item where !value.isNull {
            guard let i = column(named: name) else { continue }
            try bind(value, column: i, at: offset + Int32(i + 1), to: handle, scratch: &scratch)
            if i == versionColumn { versionBound = true } else if i < keyColumnCount, isKeyColumn[i] { keysBound += 1 }
        }
        if keysBound < primaryKey.count, let missing = primaryKey.first(where: { item[columns[$0].name]?.isNull ?? true }) {
            throw missingKey(columns[missing].name)
        }
        // `_version` is NOT NULL DEFAULT 1; an explicit NULL would not get the default.
        if !versionBound { sqlite3_bind_int64(handle, offset + Int32(versionColumn + 1), 1) }
    }

    /// Where bound text is copied for one run of a statement, so that SQLite need not copy it
    /// again: with SQLite's own copy, a sync page cost an allocation per text field.
    struct TextScratch {
        /// Stack space for one run's text (a sync page's batch of records holds about 5 KB);
        /// what does not fit is copied by SQLite.
        static let capacity = 16_384
        /// `nil`: SQLite copies every text.
        let buffer: UnsafeMutableBufferPointer<UInt8>?
        var used = 0

        static var none: TextScratch { TextScratch(buffer: nil) }
    }

    func bind(
        _ value: JSONValue, column: Int, at position: Int32, to handle: SQLiteStatement, scratch: inout TextScratch
    ) throws {
        // The common cases bind straight from the value; a sync page binds a dozen per record.
        switch (columns[column].kind, value) {
        case (.text, .string(let text)), (.jsonString, .string(let text)):
            if isLookupColumn[column] { try refuseNUL(text, column: column) }
            bindText(text, at: position, to: handle, scratch: &scratch)
            return
        case (.integer, .int(let number)):
            sqlite3_bind_int64(handle, position, Int64(number))
            return
        case (.boolean, .bool(let flag)):
            sqlite3_bind_int64(handle, position, flag ? 1 : 0)
            return
        default:
            break
        }
        switch try encode(value, column: column).storage {
        case .null: sqlite3_bind_null(handle, position)
        case .int64(let i): sqlite3_bind_int64(handle, position, i)
        case .double(let d): sqlite3_bind_double(handle, position, d)
        case .string(let text):
            bindText(text, at: position, to: handle, scratch: &scratch)
        case .blob(let data):
            data.withUnsafeBytes { bytes in
                _ = sqlite3_bind_blob(handle, position, bytes.baseAddress, Int32(bytes.count), Self.transient)
            }
        }
    }

    private func bindText(_ text: String, at position: Int32, to handle: SQLiteStatement, scratch: inout TextScratch) {
        var text = text
        text.withUTF8 { bytes in
            guard let buffer = scratch.buffer, bytes.count <= buffer.count - scratch.used else {
                _ = sqlite3_bind_text(handle, position, bytes.baseAddress, Int32(bytes.count), Self.transient)
                return
            }
            let start = buffer.baseAddress! + scratch.used
            if let source = bytes.baseAddress { start.update(from: source, count: bytes.count) }
            scratch.used += bytes.count
            // SQLITE_STATIC: SQLite reads the bytes in place until the bindings are cleared.
            _ = sqlite3_bind_text(handle, position, start, Int32(bytes.count), nil)
        }
    }

    /// Binds `bytes` as text that SQLite reads in place (SQLITE_STATIC): they must outlive the
    /// statement's run.
    func bindText(_ bytes: UnsafeBufferPointer<UInt8>, at position: Int32, to handle: SQLiteStatement) {
        _ = sqlite3_bind_text(handle, position, bytes.baseAddress, Int32(bytes.count), nil)
    }

    func bindInteger(_ value: Int64, at position: Int32, to handle: SQLiteStatement) {
        sqlite3_bind_int64(handle, position, value)
    }

    /// SQLite copies the bytes: the Swift buffer does not outlive the call.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    static func error(_ code: Int32, _ statement: Statement) -> DatabaseError {
        DatabaseError(
            resultCode: ResultCode(rawValue: code),
            message: String(cString: sqlite3_errmsg(sqlite3_db_handle(statement.sqliteStatement))),
            sql: statement.sql)
    }
}
