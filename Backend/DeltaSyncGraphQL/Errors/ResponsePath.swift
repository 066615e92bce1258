import GraphQL

/// Where a value sits in a response's `data`: response keys and list indexes from the root,
/// as an error's `path` names it.
package struct ResponsePath: Sendable, Equatable {
    var elements: [IndexPathValue]

    package init(_ elements: [IndexPathValue] = []) {
        self.elements = elements
    }

    /// The path below this one.
    package static func + (path: ResponsePath, below: [IndexPathValue]) -> ResponsePath {
        ResponsePath(path.elements + below)
    }

    /// The `path` of an error: `["listPosts", "items", 5, "title"]`.
    var map: Map {
        .array(elements.map { element in
            switch element {
            case .index(let i): return .int(i)
            case .key(let k): return .string(k)
            }
        })
    }

    /// As AppSync writes a path inside a message: `/listPosts/items/5/title`.
    var slashed: String { "/" + components.joined(separator: "/") }

    /// As the log names a location: `listPosts.items.5.title`, or `the request` for the root.
    var dotted: String { elements.isEmpty ? "the request" : components.joined(separator: ".") }

    private var components: [String] {
        elements.map { element in
            switch element {
            case .index(let i): return String(i)
            case .key(let k): return k
            }
        }
    }
}
