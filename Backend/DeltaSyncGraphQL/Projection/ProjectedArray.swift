import GraphQL

/// A page's items written as a JSON array, ready to splice into a response, with the
/// failures of the fields that had no value (see ``ProjectionFailure``).
///
/// An item whose non-null field had no value (stored under an older schema) is `null`: AppSync
/// nulls such an item (`items` is `[Model]!`) and reports an error with the field's path.
struct ProjectedArray: Sendable {
    private(set) var json: [UInt8]
    private(set) var count = 0
    /// Paths from the item's index down.
    private(set) var failures: [ProjectionFailure] = []

    init(capacity: Int) {
        json = [UInt8(ascii: "[")]
        json.reserveCapacity(capacity * 256)
    }

    /// The finished array.
    var bytes: [UInt8] { json + [UInt8(ascii: "]")] }

    /// The response's errors for this page at `path` (`["listPosts", "items"]`).
    func errors(at path: ResponsePath) -> [Map] {
        failures.map { $0.error(under: path) }
    }

    /// Appends one item: `write` writes it and returns `false`, having written nothing, when it
    /// is null.
    mutating func append(_ write: (inout [UInt8], inout [ProjectionFailure]) -> Bool) {
        if count > 0 { json.append(UInt8(ascii: ",")) }
        let mark = failures.count
        if !write(&json, &failures) { json.append(contentsOf: "null".utf8) }
        failures.place(from: mark, within: .index(count))
        count += 1
    }

    /// ``append(_:)`` for a writer that reads as it writes.
    mutating func append(_ write: (inout [UInt8], inout [ProjectionFailure]) async -> Bool) async {
        if count > 0 { json.append(UInt8(ascii: ",")) }
        let mark = failures.count
        if !(await write(&json, &failures)) { json.append(contentsOf: "null".utf8) }
        failures.place(from: mark, within: .index(count))
        count += 1
    }
}
