import DeltaSyncCore
import DeltaSyncSQLite

/// Where a sync page's items lie in the answer's text, each member matched to its column
/// (``ScannedRecords``, a batch per insert statement), with the page's token and `startedAt`:
/// one pass over the text, no ``JSONValue`` built but for those two. It runs while the page
/// before is stored, so the writer only binds.
///
/// `nil` for anything but a well-formed page under plainly written names whose items are
/// objects with distinct keys written as plain strings or integers: ``SyncPage`` parses such an
/// answer, and the ``Item`` path explains what is wrong or keeps the newest of an item.
struct SyncPageScan {
    var items: [JSONScanner.Span] = []
    /// The items, ``RemoteApply/insertBatch`` per batch.
    var batches: [ScannedRecords] = []
    var nextToken: JSONValue = .null
    var startedAt: Int?

    init?(_ text: String, field: String, table: ModelTable) {
        var text = text
        guard let scan = text.withUTF8({ bytes in (try? Self.scan(bytes, field: field, table: table)) ?? nil }) else { return nil }
        self = scan
    }

    private init() {}

    private static func scan(_ bytes: UnsafeBufferPointer<UInt8>, field: String, table: ModelTable) throws -> SyncPageScan? {
        var page = SyncPageScan()
        var usable = true
        var found = (data: false, connection: false, items: false, nextToken: false, startedAt: false)
        /// Whether `name` is plain and the first member named `wanted` (which `seen` records).
        func first(_ name: JSONScanner.Span, _ wanted: String, _ seen: inout Bool) -> Bool {
            usable = usable && name.kind == .plainString
            guard !seen, name.isPlainString(wanted, in: bytes) else { return false }
            seen = true
            return true
        }
        var scanner = JSONScanner(bytes)
        // One pass: each level is entered where it lies, everything else skipped.
        try scanner.members { name, scanner throws(JSONParser.Failure) in
            guard first(name, "data", &found.data), scanner.atObject() else { return try skip(&scanner) }
            try scanner.members { name, scanner throws(JSONParser.Failure) in
                guard first(name, field, &found.connection), scanner.atObject() else { return try skip(&scanner) }
                try scanner.members { name, scanner throws(JSONParser.Failure) in
                    if first(name, "items", &found.items) {
                        usable = try page.readItems(&scanner, table: table) && usable
                    } else if first(name, "nextToken", &found.nextToken) {
                        page.nextToken = try scanner.value().parse(in: bytes)
                    } else if first(name, "startedAt", &found.startedAt) {
                        page.startedAt = try scanner.value().parse(in: bytes).intValue
                    } else {
                        try skip(&scanner)
                    }
                }
            }
        }
        try scanner.end()
        return usable && found.items ? page : nil
    }

    /// A key value this path compares as text: a plain string or an integer.
    private static func isPlainKey(_ span: JSONScanner.Span) -> Bool {
        span.kind == .plainString || span.kind == .integer
    }

    private static func skip(_ scanner: inout JSONScanner) throws(JSONParser.Failure) {
        _ = try scanner.value()
    }

    /// Reads the items of the list at the scanner; `false` when it is not a list or an item is
    /// not an object with a distinct plainly written key.
    private mutating func readItems(_ scanner: inout JSONScanner, table: ModelTable) throws(JSONParser.Failure) -> Bool {
        guard scanner.atArray() else {
            _ = try scanner.value()
            return false
        }
        let bytes = scanner.bytes
        let keyCount = table.primaryKey.count
        var keys = Set<ScannedKey>()
        var usable = true
        var batch = ScannedRecords()
        try scanner.elements { element throws(JSONParser.Failure) in
            guard usable, element.atObject() else {
                usable = false
                _ = try element.value()
                return
            }
            if batch.count == RemoteApply.insertBatch {
                batches.append(batch)
                batch = ScannedRecords()
            }
            let start = element.position
            try table.scanRecord(&element, into: &batch)
            let record = batch.count - 1
            // Most models have one key field: no array is made for the others then.
            let rest = (1..<keyCount).compactMap { table.keySpan(at: $0, of: batch, record: record) }
            guard let first = table.keySpan(at: 0, of: batch, record: record), rest.count == keyCount - 1,
                Self.isPlainKey(first), rest.allSatisfy(Self.isPlainKey),
                keys.insert(ScannedKey(bytes: bytes, first: first, rest: rest)).inserted
            else {
                usable = false
                return
            }
            items.append(JSONScanner.Span(kind: .object, range: start..<element.position))
        }
        if batch.count > 0 { batches.append(batch) }
        return usable
    }
}

/// A record's key as text, equal when the ``JSONValue`` keys are equal: plain strings by their
/// bytes, integers by their value (`-0` is `0`).
private struct ScannedKey: Hashable {
    let bytes: UnsafeBufferPointer<UInt8>
    /// The first key field's value, and the others' (none for most models: no allocation).
    let first: JSONScanner.Span
    let rest: [JSONScanner.Span]

    func hash(into hasher: inout Hasher) {
        combine(first, into: &hasher)
        for span in rest { combine(span, into: &hasher) }
    }

    private func combine(_ span: JSONScanner.Span, into hasher: inout Hasher) {
        if span.kind == .integer {
            hasher.combine(span.integer(in: bytes))
        } else {
            hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[span.contents])))
        }
    }

    static func == (a: ScannedKey, b: ScannedKey) -> Bool {
        same(a.first, in: a.bytes, b.first, in: b.bytes) && zip(a.rest, b.rest).allSatisfy { same($0, in: a.bytes, $1, in: b.bytes) }
    }

    private static func same(_ x: JSONScanner.Span, in a: UnsafeBufferPointer<UInt8>, _ y: JSONScanner.Span, in b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard x.kind == y.kind else { return false }
        if x.kind == .integer { return x.integer(in: a) == y.integer(in: b) }
        return UnsafeBufferPointer(rebasing: a[x.contents]).elementsEqual(UnsafeBufferPointer(rebasing: b[y.contents]))
    }
}
