import DeltaSyncCore
import DeltaSyncModelSchema
import GRDB

/// A model's rows by key: reading, writing and checking the values that go in.
extension ModelTable {
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
            found[leadingKey(of: handle)] = Self.rowMetadata(of: handle, from: first)
        }
        return found
    }

    /// The stored item with this key, tombstones included.
    package func fetch(key: Item, in db: Database) throws -> Item? {
        let statement = try db.cachedStatement(sql: selectByKeySQL)
        let rows = try Row.fetchCursor(statement, arguments: StatementArguments(keyArguments(key)))
        guard try rows.next() != nil else { return nil }
        return item(from: statement)
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
        try insertIfAbsent(count: items.count, using: statement, in: db) { row, handle, scratch in
            try bind(items[row], after: Int32(row * columns.count), to: handle, scratch: &scratch)
        } key: { row in
            key(of: items[row])
        }
    }

    /// ``insertIfAbsent(_:using:in:)-([Item],_,_)`` for the records of `scanned`, bound from
    /// `text`, the UTF-8 their spans point into.
    package func insertIfAbsent(
        _ scanned: ScannedRecords, text: UnsafeBufferPointer<UInt8>, using statement: Statement, in db: Database
    ) throws -> [Bool] {
        try insertIfAbsent(count: scanned.count, using: statement, in: db) { row, handle, scratch in
            try bind(scanned, record: row, text: text, after: Int32(row * columns.count), to: handle, scratch: &scratch)
        } key: { row in
            try key(of: scanned, record: row, text: text)
        }
    }

    /// Runs an insert of `count` rows, each bound by `bind` (the row, the statement, the
    /// scratch for text); `key` gives a row's key, asked only when some rows existed.
    private func insertIfAbsent(
        count: Int, using statement: Statement, in db: Database, bind: (Int, SQLiteStatement, inout TextScratch) throws -> Void,
        key: (Int) throws -> JSONValue
    ) throws -> [Bool] {
        let handle = statement.sqliteStatement
        try run(statement) { scratch in
            for row in 0..<count { try bind(row, handle, &scratch) }
        }
        let inserted = db.changesCount
        if inserted == count || inserted == 0 { return Array(repeating: inserted > 0, count: count) }
        // The new rows took the rowids after the table's largest, one after another, so the
        // last `inserted` rowids are the new rows.
        let keyList = primaryKey.map { columns[$0].quoted }.joined(separator: ", ")
        // Cached: every page of a delta sync that mixes new and known items comes here.
        let newRows = try db.cachedStatement(sql: "SELECT \(keyList) FROM \(quotedName) WHERE rowid > ?")
        let rows = try Row.fetchCursor(newRows, arguments: [db.lastInsertedRowID - Int64(inserted)])
        var new = Set<JSONValue>()
        while try rows.next() != nil { new.insert(leadingKey(of: newRows.sqliteStatement)) }
        return try (0..<count).map { new.contains(try key($0)) }
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
    func refuseNUL(_ text: String, column index: Int) throws {
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
