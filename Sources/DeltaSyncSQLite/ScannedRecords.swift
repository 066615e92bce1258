import DeltaSyncCore
import GRDB

/// Records of one model as the JSON text a server sent, each member matched to its column: what
/// ``ModelTable/insertIfAbsent(_:text:using:in:)`` binds straight from the text, without a
/// ``JSONValue`` per record (building them was a fifth of a client's first sync). One batch of
/// a page, a statement's worth, each small enough for the allocator to reuse its memory.
///
/// ```swift
/// var batch = ScannedRecords()
/// try table.scanRecord(&scanner, into: &batch)  // the scanner at an object
/// let inserted = try table.insertIfAbsent(batch, text: bytes, using: statement, in: db)
/// ```
package struct ScannedRecords: Sendable {
    /// One member of a record that is stored: a column and its non-null value.
    struct Member: Sendable {
        var value: JSONScanner.Span
        var column: Int32
    }

    struct Record: Sendable {
        /// The record's members in ``members``.
        var members: Range<Int>
        /// Whether `_deleted` is `true`: a tombstone.
        var deleted: Bool
    }

    var records: [Record] = []
    var members: [Member] = []
    /// The record that last set each column while scanning: a later member of the same name is
    /// a duplicate.
    var setBy: [Int] = []

    package init() {}

    package var count: Int { records.count }

    /// Whether record `index` is a tombstone.
    package func isDeleted(_ index: Int) -> Bool { records[index].deleted }
}

extension ModelTable {
    /// Reads the object at `scanner` as the next record of `scanned`, its members matched to
    /// this table's columns.
    ///
    /// As ``JSONParser``, the first of two members with one name counts; members without a
    /// column are left out and null ones are not bound, as when binding an ``Item``.
    package func scanRecord(_ scanner: inout JSONScanner, into scanned: inout ScannedRecords) throws(JSONParser.Failure) {
        let bytes = scanner.bytes
        let index = scanned.records.count
        let first = scanned.members.count
        if scanned.setBy.count != columns.count { scanned.setBy = [Int](repeating: -1, count: columns.count) }
        let deletedColumn = column(named: "_deleted")
        var deleted = false
        try scanner.members { name, scanner throws(JSONParser.Failure) in
            let value = try scanner.value()
            let found = name.kind == .plainString ? column(utf8: UnsafeBufferPointer(rebasing: bytes[name.contents])) : namedColumn(name, in: bytes)
            guard let i = found, scanned.setBy[i] != index else { return }
            scanned.setBy[i] = index
            guard value.kind != .null else { return }
            if i == deletedColumn { deleted = value.kind == .true }
            scanned.members.append(.init(value: value, column: Int32(i)))
        }
        scanned.records.append(.init(members: first..<scanned.members.count, deleted: deleted))
    }

    /// The value of record `index`'s primary key field at `position` in key order, `nil` when
    /// it is missing or null.
    package func keySpan(at position: Int, of scanned: ScannedRecords, record index: Int) -> JSONScanner.Span? {
        keySpan(primaryKey[position], of: scanned, record: index)
    }

    /// The column of a member name written with escapes or non-ASCII bytes.
    private func namedColumn(_ name: JSONScanner.Span, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard case .string(let text)? = try? name.parse(in: bytes) else { return nil }
        return column(named: text)
    }

    /// Binds the members of record `index` of `scanned` to the parameters of one row, those
    /// after the first `offset`, as ``bind(_:after:to:scratch:)`` binds an ``Item``.
    ///
    /// Plain strings are bound where they lie in the text (SQLite reads them in place until the
    /// bindings are cleared); integers and booleans as read; anything else as its ``JSONValue``.
    func bind(
        _ scanned: ScannedRecords, record index: Int, text bytes: UnsafeBufferPointer<UInt8>, after offset: Int32, to handle: SQLiteStatement,
        scratch: inout TextScratch
    ) throws {
        var keysBound = 0
        var versionBound = false
        for member in scanned.members[scanned.records[index].members] {
            let i = Int(member.column)
            let position = offset + Int32(i + 1)
            let value = member.value
            switch (columns[i].kind, value.kind) {
            case (.text, .plainString), (.jsonString, .plainString):
                // Plain strings have no escapes, so no NUL: nothing for `refuseNUL` to find.
                bindText(UnsafeBufferPointer(rebasing: bytes[value.contents]), at: position, to: handle)
            case (.integer, .integer):
                bindInteger(Int64(value.integer(in: bytes)), at: position, to: handle)
            case (.boolean, .true), (.boolean, .false):
                bindInteger(value.kind == .true ? 1 : 0, at: position, to: handle)
            default:
                try bind(value.parse(in: bytes), column: i, at: position, to: handle, scratch: &scratch)
            }
            if i == versionColumn { versionBound = true } else if i < keyColumnCount, isKeyColumn[i] { keysBound += 1 }
        }
        if keysBound < primaryKey.count, let missing = primaryKey.first(where: { keySpan($0, of: scanned, record: index) == nil }) {
            throw missingKey(columns[missing].name)
        }
        // `_version` is NOT NULL DEFAULT 1; an explicit NULL would not get the default.
        if !versionBound { bindInteger(1, at: offset + Int32(versionColumn + 1), to: handle) }
    }

    /// Record `index`'s key as ``key(of:)`` gives it for its ``Item``.
    func key(of scanned: ScannedRecords, record index: Int, text bytes: UnsafeBufferPointer<UInt8>) throws -> JSONValue {
        let values = try primaryKey.map { column in try keySpan(column, of: scanned, record: index)?.parse(in: bytes) ?? .null }
        return primaryKey.count == 1 ? values[0] : .array(values)
    }

    private func keySpan(_ column: Int, of scanned: ScannedRecords, record index: Int) -> JSONScanner.Span? {
        scanned.members[scanned.records[index].members].first { $0.column == Int32(column) }?.value
    }
}
