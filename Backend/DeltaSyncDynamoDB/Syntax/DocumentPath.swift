/// An attribute inside an item: `title`, `location.lat`, `tags[0]`, `#a.#b[2]`, with
/// `expressionNames` already replaced by the names they stand for.
///
/// ```swift
/// let path = DocumentPath([.name("a"), .name("b"), .index(2)])
/// path.description  // a.b[2]
/// ```
public struct DocumentPath: Sendable, Hashable, CustomStringConvertible {
    /// One step of a path.
    public enum Element: Sendable, Hashable {
        /// A member of a map (or the item's top-level attribute).
        case name(String)
        /// An element of a list.
        case index(Int)
    }

    /// The steps, the first always a ``Element/name(_:)``.
    public var elements: [Element]

    /// A path of `elements`, the first a name.
    public init(_ elements: [Element]) {
        self.elements = elements
    }

    /// The item attribute the path starts at.
    public var attribute: String {
        if case .name(let name)? = elements.first { return name }
        return ""
    }

    /// The path as written without placeholders: `a.b[2]`.
    public var description: String {
        var text = ""
        for element in elements {
            switch element {
            case .name(let name): text += text.isEmpty ? name : "." + name
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }

    /// The path as DynamoDB prints it in overlap errors: `[a, b, [2]]`.
    var bracketedDescription: String {
        let parts = elements.map { element -> String in
            switch element {
            case .name(let name): return name
            case .index(let index): return "[\(index)]"
            }
        }
        return "[" + parts.joined(separator: ", ") + "]"
    }

    /// How two paths of one update or projection relate: DynamoDB refuses both an overlap
    /// (one path is the other or inside it) and a conflict (a list index where the other has
    /// a map member).
    enum Clash { case overlap, conflict }

    func clash(with other: DocumentPath) -> Clash? {
        for (mine, theirs) in zip(elements, other.elements) where mine != theirs {
            switch (mine, theirs) {
            case (.name, .index), (.index, .name): return .conflict
            default: return nil
            }
        }
        return .overlap
    }
}
