import DeltaSyncCore

/// The primary key of one model: its key fields' values, partition field first.
///
/// ```swift
/// let id: ModelIdentifier = "post-1"                                         // a single `id`
/// let reaction = ModelIdentifier(["postID": "p1", "userID": "u1"])           // a composite key
/// ```
public struct ModelIdentifier: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// Field name and value, in key order.
    public let fields: [(name: String, value: JSONValue)]

    /// A key of these fields and values, in key order (partition field first).
    public init(_ fields: [(String, JSONValue)]) {
        self.fields = fields.map { (name: $0.0, value: $0.1) }
    }

    /// A composite key from named values; the order follows the model's key when used.
    public init(_ values: KeyValuePairs<String, JSONValue>) {
        self.init(values.map { ($0.key, $0.value) })
    }

    /// The key of `item`, a stored item of `model`.
    public init(of item: Item, in model: ModelSchema) {
        self.init(model.primaryKey.fields.map { ($0, item[$0] ?? .null) })
    }

    /// A single `id`.
    public init(stringLiteral id: String) {
        self.init([("id", .string(id))])
    }

    /// The values as an item.
    public var item: Item { Dictionary(fields.map { ($0.name, $0.value) }, uniquingKeysWith: { a, _ in a }) }

    /// The key as the outbox and events write it: the `id` alone, or the fields' values joined for a composite key.
    public var description: String {
        fields.count == 1 ? (fields[0].value.stringValue ?? fields[0].value.jsonText)
            : fields.map { "\($0.name)=\($0.value.stringValue ?? $0.value.jsonText)" }.joined(separator: "#")
    }

    /// Two identifiers are equal when their fields and values are.
    public static func == (a: Self, b: Self) -> Bool { a.item == b.item }
    /// Hashes the fields and values.
    public func hash(into hasher: inout Hasher) { hasher.combine(item) }
}
