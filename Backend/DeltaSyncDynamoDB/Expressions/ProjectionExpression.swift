import DeltaSyncCore

/// A projection expression: the attributes (and nested members and list elements) a read
/// returns.
///
/// ```swift
/// let projection = try ProjectionExpression("id, #a.lat, tags[1]", attributes: ExpressionAttributes(names: ["#a": "address"]))
/// projection.apply(to: ["id": "1", "address": ["lat": 1, "lng": 2], "tags": ["x", "y"], "body": "..."])
/// // ["id": "1", "address": ["lat": 1], "tags": ["y"]]
/// ```
public struct ProjectionExpression: Sendable, Hashable {
    /// The paths, in the order written.
    public let paths: [DocumentPath]
    /// The `#names` it uses (a projection has no values).
    public let placeholders: ExpressionPlaceholders

    /// Parses `text`.
    ///
    /// - Throws: ``DynamoDBError`` for a syntax error, an undefined `#name`, or two paths that
    ///   overlap.
    public init(_ text: String, attributes: ExpressionAttributes = ExpressionAttributes()) throws(DynamoDBError) {
        var parser = try ExpressionParser(text, kind: .projection, attributes: attributes)
        paths = try parser.wholeProjection()
        placeholders = parser.placeholders
    }

    /// Parses an AppSync `projection` object: `expression`, `expressionNames`.
    public init(request object: JSONValue) throws(DynamoDBError) {
        let (text, attributes) = try ExpressionRequest.read(object, kind: .projection)
        try self.init(text, attributes: attributes)
    }

    /// The item with only the projected paths. Nested members keep their maps around them;
    /// list elements keep their order and close up (`tags[0], tags[2]` gives a two-element list).
    public func apply(to item: Item) -> Item {
        var tree = Projection.Node.map([:])
        for path in paths {
            guard let value = ItemPath.value(at: path, in: item) else { continue }
            tree.insert(value, at: path.elements[...])
        }
        return tree.value.objectValue ?? [:]
    }
}

/// The parts of an item a projection keeps, merged path by path.
enum Projection {
    enum Node {
        case leaf(JSONValue)
        case map([String: Node])
        case list([Int: Node])

        mutating func insert(_ value: JSONValue, at path: ArraySlice<DocumentPath.Element>) {
            guard let first = path.first else {
                self = .leaf(value)
                return
            }
            switch (first, self) {
            case (.name(let name), .map(var members)):
                var child = members[name] ?? Self.empty(for: path.dropFirst().first)
                child.insert(value, at: path.dropFirst())
                members[name] = child
                self = .map(members)
            case (.index(let index), .list(var elements)):
                var child = elements[index] ?? Self.empty(for: path.dropFirst().first)
                child.insert(value, at: path.dropFirst())
                elements[index] = child
                self = .list(elements)
            default:
                // Overlapping and conflicting paths were refused when the projection was parsed.
                return
            }
        }

        private static func empty(for next: DocumentPath.Element?) -> Node {
            switch next {
            case .index?: return .list([:])
            case .name?: return .map([:])
            case nil: return .leaf(.null)
            }
        }

        var value: JSONValue {
            switch self {
            case .leaf(let value): return value
            case .map(let members): return .object(members.mapValues(\.value))
            case .list(let elements): return .array(elements.keys.sorted().map { elements[$0]!.value })
            }
        }
    }
}
