import GraphQL

/// Bounds on a GraphQL document, checked before the GraphQL library parses or validates it.
///
/// The library's parser, validation and execution recurse once per level of nesting, so a
/// 7 KB query nested 2,600 levels deep overflowed the stack and killed the server before any
/// resolver ran; a chain of fragments did the same in validation, and some validation rules
/// are quadratic (10,000 variable definitions cost ten seconds of CPU). AppSync refuses such
/// documents through its limits; these are ours, checked in the one place HTTP and realtime
/// parse documents (``RequestExecutor/document(_:)``).
public struct DocumentLimits: Sendable, Equatable {
    /// The deepest nesting of `{`, `[` and `(` in the text, fragments expanded: selection
    /// sets, arguments, and list and object values. A DataStore sync query nests about 8.
    /// Default 100.
    public var maxNesting = 100
    /// Definitions (operations and fragments) in one document. Default 500.
    public var maxDefinitions = 500
    /// Variables an operation defines. Default 250.
    public var maxVariables = 250
    /// Directives in one document. Default 500.
    public var maxDirectives = 500

    public init() {}

    /// Why `text` is refused, before it is parsed; `nil` when its nesting is within bounds.
    func refusal(text: String) -> String? {
        let depth = Self.nesting(of: text, stoppingAbove: maxNesting)
        guard depth > maxNesting else { return nil }
        return "The query nests more than \(maxNesting) levels of selections, arguments or values; flatten it."
    }

    /// Why `document` is refused, before it is validated; `nil` when it is within bounds.
    func refusal(document: Document) -> String? {
        let definitions = document.definitions
        if definitions.count > maxDefinitions {
            return "The query has \(definitions.count) operations and fragments; at most \(maxDefinitions) are allowed."
        }
        var directives = 0
        var fragments: [String: FragmentShape] = [:]
        var operations: [FragmentShape] = []
        for definition in definitions {
            switch definition {
            case let operation as OperationDefinition:
                if operation.variableDefinitions.count > maxVariables {
                    return "An operation defines \(operation.variableDefinitions.count) variables; at most \(maxVariables) are allowed."
                }
                directives += operation.directives.count
                operations.append(FragmentShape(operation.selectionSet, directives: &directives))
            case let fragment as FragmentDefinition:
                directives += fragment.directives.count
                fragments[fragment.name.value] = FragmentShape(fragment.selectionSet, directives: &directives)
            default:
                continue
            }
        }
        if directives > maxDirectives {
            return "The query uses \(directives) directives; at most \(maxDirectives) are allowed."
        }
        let expanded = Self.expandedDepth(operations, fragments: fragments, limit: maxNesting)
        guard expanded > maxNesting else { return nil }
        return "The query nests more than \(maxNesting) levels of selections once its fragments are expanded; flatten it."
    }

    // MARK: - Text

    /// The deepest nesting of `{`, `[` and `(` outside strings and comments; stops counting
    /// once past `limit`.
    static func nesting(of text: String, stoppingAbove limit: Int) -> Int {
        var depth = 0, deepest = 0
        var bytes = text.utf8[...]
        while let byte = bytes.popFirst() {
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "("):
                depth += 1
                deepest = max(deepest, depth)
                if deepest > limit { return deepest }
            case UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: ")"):
                depth = max(0, depth - 1)
            case UInt8(ascii: "#"):
                while let next = bytes.popFirst(), next != UInt8(ascii: "\n"), next != UInt8(ascii: "\r") {}
            case UInt8(ascii: "\""):
                skipString(&bytes)
            default:
                continue
            }
        }
        return deepest
    }

    /// Skips a string whose opening quote was just read: `"..."` with escapes, or a block
    /// string `"""..."""` in which only `\"""` escapes.
    private static func skipString(_ bytes: inout Substring.UTF8View) {
        let quote = UInt8(ascii: "\"")
        if bytes.starts(with: [quote, quote]) {
            bytes.removeFirst(2)
            while !bytes.isEmpty {
                if bytes.starts(with: [UInt8(ascii: "\\"), quote, quote, quote]) {
                    bytes.removeFirst(4)
                } else if bytes.starts(with: [quote, quote, quote]) {
                    bytes.removeFirst(3)
                    return
                } else {
                    bytes.removeFirst()
                }
            }
            return
        }
        while let byte = bytes.popFirst() {
            if byte == UInt8(ascii: "\\") {
                _ = bytes.popFirst()
            } else if byte == quote || byte == UInt8(ascii: "\n") {
                return
            }
        }
    }

    // MARK: - Fragments

    /// A selection set's own depth, and the fragments it spreads with the depth at which
    /// each spread sits.
    struct FragmentShape {
        var depth = 0
        var spreads: [(name: String, depth: Int)] = []

        /// Walks `set`; its nesting is already bounded by the text check.
        init(_ set: SelectionSet, directives: inout Int) {
            walk(set, at: 1, directives: &directives)
        }

        private mutating func walk(_ set: SelectionSet, at level: Int, directives: inout Int) {
            depth = max(depth, level)
            for selection in set.selections {
                switch selection {
                case let field as Field:
                    directives += field.directives.count
                    if let sub = field.selectionSet { walk(sub, at: level + 1, directives: &directives) }
                case let inline as InlineFragment:
                    directives += inline.directives.count
                    walk(inline.selectionSet, at: level, directives: &directives)
                case let spread as FragmentSpread:
                    directives += spread.directives.count
                    spreads.append((spread.name.value, level))
                default:
                    continue
                }
            }
        }
    }

    /// The deepest selection of `roots` with fragment spreads expanded, or the longest chain
    /// of fragments spreading one another if that is longer (validation recurses once per
    /// link). Computed once per fragment and without recursion: a chain of 10,000 fragments
    /// must not overflow the stack here either. Values stop growing past `limit`; cycles are
    /// left to validation, which reports them.
    static func expandedDepth(_ roots: [FragmentShape], fragments: [String: FragmentShape], limit: Int) -> Int {
        var expanded: [String: Int] = [:]
        var onStack: Set<String> = []
        func resolved(_ shape: FragmentShape, chain: Bool) -> Int {
            var depth = shape.depth
            for spread in shape.spreads {
                guard let target = expanded[spread.name] else { continue }
                depth = max(depth, spread.depth - 1 + target, chain ? target + 1 : 0)
            }
            return min(depth, limit + 1)
        }
        for name in fragments.keys where expanded[name] == nil {
            var stack: [(name: String, next: Int)] = [(name, 0)]
            onStack.insert(name)
            while let top = stack.last {
                let shape = fragments[top.name]!
                if top.next < shape.spreads.count {
                    stack[stack.count - 1].next += 1
                    let target = shape.spreads[top.next].name
                    guard fragments[target] != nil, expanded[target] == nil, !onStack.contains(target) else { continue }
                    onStack.insert(target)
                    stack.append((target, 0))
                } else {
                    expanded[top.name] = resolved(shape, chain: true)
                    onStack.remove(top.name)
                    stack.removeLast()
                }
            }
        }
        return max(roots.map { resolved($0, chain: false) }.max() ?? 0, expanded.values.max() ?? 0)
    }
}
