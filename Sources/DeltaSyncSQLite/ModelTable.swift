import DeltaSyncCore
import DeltaSyncSchema
import GRDB

#if canImport(GRDBSQLite)
import GRDBSQLite
#else
import SQLite3
#endif

/// The SQLite table of one model: its columns, keys and indexes, and the statements every
/// transaction reuses. Built once when the store opens.
package struct ModelTable: Sendable {
    package struct Column: Sendable {
        package let name: String
        package let kind: ColumnKind
        /// `"name"`, ready to splice into SQL.
        package let quoted: String
    }

    /// A secondary index, by column position.
    package struct SecondaryIndex: Sendable {
        package let name: String
        /// The SQL index name: `<Model>.<index>`, so it never clashes with another model's.
        package let sqlName: String
        package let partition: Int
        package let sortKeys: [Int]
        /// Every column of the SQL index: partition, sort keys, then the remaining key columns,
        /// which give rows with equal sort keys a stable order.
        package let columns: [Int]
    }

    /// Sync metadata present on every model, after the model's own fields.
    package static let metadata: [(name: String, kind: ColumnKind)] = [
        ("_version", .integer),
        ("_deleted", .boolean),
        ("_lastChangedAt", .integer),
        ("_ttl", .integer),
        ("__typename", .text),
    ]

    package let name: String
    package let quotedName: String
    package let columns: [Column]
    /// Column positions in an open-addressed table keyed by ``fingerprint(_:)``: what
    /// ``column(named:)`` searches.
    private let columnSlots: [Int]
    /// The column of each of the model's stored fields, in the schema's order: how generated
    /// models read a row by field position.
    package let storedFieldColumns: [Int]
    /// Whether the column at a position below ``keyColumnCount`` is a primary key column.
    private let isKeyColumn: [Bool]
    /// Whether each column is a primary key or index column: text there must not hold NUL
    /// (see ``refuseNUL(_:column:)``).
    private let isLookupColumn: [Bool]
    private let keyColumnCount: Int
    private let versionColumn: Int
    /// Primary key columns, partition first.
    package let primaryKey: [Int]
    package let indexes: [String: SecondaryIndex]

    /// `"a", "b", ...`: every column, in ``columns`` order.
    package let selectList: String
    package let insertSQL: String
    package let selectByKeySQL: String
    package let deleteByKeySQL: String
    /// `_version`, `_deleted`, `_lastChangedAt` of the row with a key: what reconciling a
    /// record and sending a mutation need, without decoding the item.
    package let selectMetadataByKeySQL: String
    /// Sets `_version` and `_lastChangedAt` (in that order) of the row with a key.
    package let updateSyncMetadataByKeySQL: String
    /// ``selectMetadataByKeySQL`` for many keys at once, given as a JSON array of key value
    /// arrays; the key columns come first in the result.
    package let selectMetadataByKeysSQL: String

    /// - Throws: ``AppSyncError`` (`InternalFailure`) when a key or index names a field the
    ///   model does not store.
    package init(_ model: Model) throws {
        var columns: [Column] = []
        var columnIndex: [String: Int] = [:]
        func add(_ name: String, _ kind: ColumnKind) {
            guard columnIndex[name] == nil else { return }
            columnIndex[name] = columns.count
            columns.append(Column(name: name, kind: kind, quoted: name.quotedDatabaseIdentifier))
        }
        // A model field named like a metadata column yields to it: the sync layer owns those.
        let metadataNames = Set(Self.metadata.map(\.name))
        for field in model.storedFields where !metadataNames.contains(field.name) {
            add(field.name, ColumnKind(field))
        }
        for (name, kind) in Self.metadata { add(name, kind) }
        let storedFieldColumns = model.storedFields.map { columnIndex[$0.name]! }

        func position(_ field: String, _ role: String) throws -> Int {
            guard let i = columnIndex[field] else {
                throw AppSyncError(
                    .internalFailure,
                    "\(role) of model \(model.name) uses field '\(field)', which \(model.name) does not store. Fix the schema: key and index fields must be scalar fields of the model."
                )
            }
            return i
        }

        let primaryKey = try model.primaryKey.fields.map { try position($0, "The primary key") }
        var indexes: [String: SecondaryIndex] = [:]
        for index in model.indexes {
            let role = "Index '\(index.name)'"
            let partition = try position(index.partitionField, role)
            let sortKeys = try index.sortKeyFields.map { try position($0, role) }
            var indexColumns: [Int] = []
            for c in [partition] + sortKeys + primaryKey where !indexColumns.contains(c) { indexColumns.append(c) }
            indexes[index.name] = SecondaryIndex(
                name: index.name, sqlName: "\(model.name).\(index.name)",
                partition: partition, sortKeys: sortKeys, columns: indexColumns
            )
        }

        self.name = model.name
        self.quotedName = model.name.quotedDatabaseIdentifier
        self.columns = columns
        var slots = [Int](repeating: -1, count: max(8, 1 << (Int.bitWidth - (columns.count * 4).leadingZeroBitCount)))
        for (i, column) in columns.enumerated() {
            var slot = Self.fingerprint(column.name) & (slots.count - 1)
            while slots[slot] >= 0 { slot = (slot + 1) & (slots.count - 1) }
            slots[slot] = i
        }
        self.columnSlots = slots
        self.storedFieldColumns = storedFieldColumns
        self.keyColumnCount = (primaryKey.max() ?? -1) + 1
        self.isKeyColumn = (0..<keyColumnCount).map { primaryKey.contains($0) }
        let lookupColumns = Set(primaryKey + indexes.values.flatMap(\.columns))
        self.isLookupColumn = columns.indices.map { lookupColumns.contains($0) }
        self.versionColumn = columnIndex["_version"]!
        self.primaryKey = primaryKey
        self.indexes = indexes

        let list = columns.map(\.quoted).joined(separator: ", ")
        let keyMatch = primaryKey.map { "\(columns[$0].quoted) = ?" }.joined(separator: " AND ")
        self.selectList = list
        self.insertSQL = "INSERT OR REPLACE INTO \(quotedName) (\(list)) VALUES (\(Self.placeholders(columns.count)))"
        self.selectByKeySQL = "SELECT \(list) FROM \(quotedName) WHERE \(keyMatch)"
        self.deleteByKeySQL = "DELETE FROM \(quotedName) WHERE \(keyMatch)"
        self.selectMetadataByKeySQL = "SELECT \"_version\", \"_deleted\", \"_lastChangedAt\" FROM \(quotedName) WHERE \(keyMatch)"
        self.updateSyncMetadataByKeySQL = "UPDATE \(quotedName) SET \"_version\" = ?, \"_lastChangedAt\" = ? WHERE \(keyMatch)"
        let keyList = primaryKey.map { columns[$0].quoted }.joined(separator: ", ")
        let extracted = primaryKey.indices.map { "json_extract(value, '$[\($0)]')" }.joined(separator: ", ")
        self.selectMetadataByKeysSQL = """
            SELECT \(keyList), "_version", "_deleted", "_lastChangedAt" FROM \(quotedName)
            WHERE (\(keyList)) IN (SELECT \(extracted) FROM json_each(?))
            """
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

    // MARK: - Definition

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

    // MARK: - Values

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
            return kind == .boolean ? .bool(value != 0) : .int(Int(value))
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

    // MARK: - Rows

    /// The primary key of `item` as one value: the key field's value, or for a composite key
    /// the array of its fields' values in key order (`null` for a missing one).
    ///
    /// Most models have a single key field; a sync page keys a thousand records, and an array
    /// per record cost an allocation each.
    package func key(of item: Item) -> JSONValue {
        primaryKey.count == 1 ? item[columns[primaryKey[0]].name] ?? .null : .array(keyFields(of: item))
    }

    /// The values of `item`'s primary key fields, in key order (`null` for a missing one).
    private func keyFields(of item: Item) -> [JSONValue] {
        primaryKey.map { item[columns[$0].name] ?? .null }
    }

    /// The sync metadata of every stored row whose key is among `items`' keys, by
    /// ``key(of:)``. One statement for a whole sync page: the keys go in as one JSON array,
    /// so a thousand lookups cost one statement's overhead instead of a thousand.
    package func metadata(ofKeys items: [Item], in db: Database) throws -> [JSONValue: RowMetadata] {
        guard !items.isEmpty else { return [:] }
        let keys = JSONValue.array(items.map { .array(keyFields(of: $0)) })
        let statement = try db.cachedStatement(sql: selectMetadataByKeysSQL)
        let rows = try Row.fetchCursor(statement, arguments: [keys.jsonText])
        let handle = statement.sqliteStatement
        let first = Int32(primaryKey.count)
        var found: [JSONValue: RowMetadata] = [:]
        while try rows.next() != nil {
            found[leadingKey(of: handle)] = RowMetadata(
                version: sqlite3_column_type(handle, first) == SQLITE_NULL ? nil : Int(sqlite3_column_int64(handle, first)),
                deleted: sqlite3_column_int64(handle, first + 1) != 0,
                lastChangedAt: sqlite3_column_type(handle, first + 2) == SQLITE_NULL ? nil : Int(sqlite3_column_int64(handle, first + 2)))
        }
        return found
    }

    /// The key of the row `handle` is stepped on, as ``key(of:)`` gives it for an item; the
    /// statement's result starts with the key columns.
    private func leadingKey(of handle: SQLiteStatement) -> JSONValue {
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

    /// The stored item with this key, tombstones included.
    package func fetch(key: Item, in db: Database) throws -> Item? {
        let statement = try db.cachedStatement(sql: selectByKeySQL)
        let rows = try Row.fetchCursor(statement, arguments: StatementArguments(keyArguments(key)))
        guard try rows.next() != nil else { return nil }
        return item(from: statement)
    }

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
            return RowMetadata(
                version: sqlite3_column_type(handle, 0) == SQLITE_NULL ? nil : Int(sqlite3_column_int64(handle, 0)),
                deleted: sqlite3_column_int64(handle, 1) != 0,
                lastChangedAt: sqlite3_column_type(handle, 2) == SQLITE_NULL ? nil : Int(sqlite3_column_int64(handle, 2)))
        default:
            throw Self.error(code, statement)
        }
    }

    /// Inserts or replaces the row of `item`.
    ///
    /// - Throws: ``AppSyncError`` (`ValidationException`) when a key field is missing or a
    ///   value does not fit its field.
    package func put(_ item: Item, in db: Database) throws {
        try put(item, using: db.cachedStatement(sql: insertSQL))
    }

    /// ``put(_:in:)`` with a statement prepared from ``insertSQL``, which a batch prepares once.
    package func put(_ item: Item, using statement: Statement) throws {
        try step(item, using: statement)
    }

    /// Inserts the row of each of `items` unless a row with its key exists, in one statement
    /// prepared from ``insertIfAbsentSQL(rows:)`` for `items.count` rows. The table must have
    /// the ``Layout/rowid`` layout.
    ///
    /// A sync page of items the device has never seen (a first sync) costs one insert per item
    /// this way, instead of a lookup and then an insert; and a statement of many rows pays
    /// SQLite's cost of running a statement (a cursor opened on each B-tree, halting) once
    /// for all of them: a fifth of a sync page's time with one row per statement.
    ///
    /// - Returns: whether each item was inserted, in order; `false` when a row with its key
    ///   existed.
    package func insertIfAbsent(_ items: [Item], using statement: Statement, in db: Database) throws -> [Bool] {
        let handle = statement.sqliteStatement
        try run(statement) { scratch in
            for (row, item) in items.enumerated() {
                try bind(item, after: Int32(row * columns.count), to: handle, scratch: &scratch)
            }
        }
        let inserted = Int(sqlite3_changes(db.sqliteConnection))
        if inserted == items.count || inserted == 0 { return Array(repeating: inserted > 0, count: items.count) }
        // The new rows took the rowids after the table's largest, one after another, so the
        // last `inserted` rowids are the new rows.
        let keyList = primaryKey.map { columns[$0].quoted }.joined(separator: ", ")
        // Cached: every page of a delta sync that mixes new and known items comes here.
        let newRows = try db.cachedStatement(sql: "SELECT \(keyList) FROM \(quotedName) WHERE rowid > ?")
        let rows = try Row.fetchCursor(newRows, arguments: [db.lastInsertedRowID - Int64(inserted)])
        var new = Set<JSONValue>()
        while try rows.next() != nil { new.insert(leadingKey(of: newRows.sqliteStatement)) }
        return items.map { new.contains(key(of: $0)) }
    }

    /// Binds `item` to an insert statement from ``insertSQL`` and runs it.
    ///
    /// Binds with SQLite's C API, as ``item(from:)`` reads: building GRDB's arguments cost more
    /// than the insert when a sync page applies a thousand records.
    private func step(_ item: Item, using statement: Statement) throws {
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
    private func run(_ statement: Statement, bindings: (inout TextScratch) throws -> Void) throws {
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
    private func bind(_ item: Item, after offset: Int32, to handle: SQLiteStatement, scratch: inout TextScratch) throws {
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
    private struct TextScratch {
        /// Stack space for one run's text (a sync page's batch of records holds about 5 KB);
        /// what does not fit is copied by SQLite.
        static let capacity = 16_384
        /// `nil`: SQLite copies every text.
        let buffer: UnsafeMutableBufferPointer<UInt8>?
        var used = 0

        static var none: TextScratch { TextScratch(buffer: nil) }
    }

    private func bind(
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

    /// The position in ``columns`` of the column named `name`, `nil` when there is none.
    ///
    /// Binding a sync page looks up a dozen field names per record; hashing each with the
    /// standard hasher cost more than binding its value. A name's length and end bytes are
    /// read without hashing, and almost always tell the columns apart.
    package func column(named name: String) -> Int? {
        let mask = columnSlots.count - 1
        var slot = Self.fingerprint(name) & mask
        while true {
            let i = columnSlots[slot]
            if i < 0 { return nil }
            if columns[i].name == name { return i }
            slot = (slot + 1) & mask
        }
    }

    private static func fingerprint(_ name: String) -> Int {
        let utf8 = name.utf8
        return utf8.count &* 961 &+ Int(utf8.first ?? 0) &* 31 &+ Int(utf8.last ?? 0)
    }

    /// SQLite copies the bytes: the Swift buffer does not outlive the call.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    private static func error(_ code: Int32, _ statement: Statement) -> DatabaseError {
        DatabaseError(
            resultCode: ResultCode(rawValue: code),
            message: String(cString: sqlite3_errmsg(sqlite3_db_handle(statement.sqliteStatement))),
            sql: statement.sql)
    }

    /// Encodes `value` for the column at `index`.
    ///
    /// - Throws: ``AppSyncError`` (`ValidationException`) when the value does not fit the field.
    package func encode(_ value: JSONValue, column index: Int) throws -> DatabaseValue {
        let column = columns[index]
        // Keys and index values are bound through GRDB, as C strings.
        if isLookupColumn[index], case .string(let text) = value { try refuseNUL(text, column: index) }
        guard let encoded = column.kind.encode(value) else {
            throw AppSyncError(
                .validation,
                "Field '\(column.name)' of \(name) holds \(column.kind.expectation), not \(value.jsonText). Convert the value to the field's type before storing or querying it."
            )
        }
        return encoded
    }

    /// The primary key values of `key` as statement arguments.
    ///
    /// - Throws: ``AppSyncError`` (`ValidationException`) when a key field is missing or null.
    package func keyArguments(_ key: Item) throws -> [DatabaseValue] {
        try primaryKey.map { i in
            let value = key[columns[i].name] ?? .null
            guard !value.isNull else { throw missingKey(columns[i].name) }
            return try encode(value, column: i)
        }
    }

    /// Throws when `text` holds a NUL (U+0000). Keys and index values are looked up through
    /// GRDB, which binds text as a C string: `"victim\u{0}x"` would find the item `victim`.
    /// Refusing them keeps every key naming exactly one item.
    ///
    /// - Throws: ``AppSyncError`` (`ValidationException`).
    private func refuseNUL(_ text: String, column index: Int) throws {
        guard text.utf8.contains(0) else { return }
        throw AppSyncError(
            .validation,
            "Field '\(columns[index].name)' of \(name) is a key or index field and cannot contain the NUL character (U+0000). Remove it from the value."
        )
    }

    package func missingKey(_ field: String) -> AppSyncError {
        let names = primaryKey.map { columns[$0].name }.joined(separator: ", ")
        return AppSyncError(
            .validation,
            "The key of \(name) needs a value for '\(field)'. Give every primary key field (\(names))."
        )
    }
}

/// A row's sync metadata.
package struct RowMetadata: Sendable, Equatable {
    package var version: Int?
    package var deleted: Bool
    package var lastChangedAt: Int?

    /// The backend's version of the row: `nil` for a row that never synced (no
    /// `_lastChangedAt`), whatever its `_version` column defaulted to.
    package var syncedVersion: Int? { lastChangedAt == nil ? nil : version }

    package init(version: Int?, deleted: Bool, lastChangedAt: Int?) {
        self.version = version
        self.deleted = deleted
        self.lastChangedAt = lastChangedAt
    }
}
