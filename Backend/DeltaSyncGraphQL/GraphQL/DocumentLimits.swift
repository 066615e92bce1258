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
    /// Fields, fragment spreads and inline fragments in one document. Validation compares the
    /// fields of a selection set pairwise (3,000 fields cost seconds). A DataStore document
    /// selects a model's fields and metadata, a few dozen. Default 1,000.
    public var maxSelections = 1_000
    /// Values written in the document's arguments (each list element and object field counts):
    /// checking an `or` of 20,000 literal clauses against its input type took 16 seconds.
    /// Values sent as variables do not count. Default 1,000.
    public var maxValues = 1_000
    /// The longest name (of a field, type, argument or variable). An unknown name is answered
    /// with the names it is closest to, found by comparing it with every name in the schema:
    /// a 30 KB name took seconds. Default 256.
    public var maxNameLength = 256
    /// Tokens (names, numbers, strings, punctuation) in the document's text, counted before it
    /// is parsed: the library's parser spends about a microsecond a token, and 60,000 aliases
    /// (660,000 tokens) took 0.9 s of CPU to parse before the selection limit refused them.
    /// A DataStore document has a few hundred; 1,000 selections with arguments, about 10,000.
    /// Default 20,000.
    public var maxTokens = 20_000

    public init() {}

    /// Why `text` is refused, before it is parsed; `nil` when its nesting is within bounds.
    func refusal(text: String) -> String? {
        let shape = Self.scan(text, stoppingAbove: self)
        if shape.depth > maxNesting {
            return "The query nests more than \(maxNesting) levels of selections, arguments or values; flatten it."
        }
        if shape.longestName > maxNameLength {
            return "The query has a name longer than \(maxNameLength) characters."
        }
        if shape.tokens > maxTokens {
            return "The query has more than \(maxTokens) tokens (names, values and punctuation); pass large inputs as variables, or split it."
        }
        return nil
    }

    /// Why `document` is refused, before it is validated; `nil` when it is within bounds.
    func refusal(document: Document) -> String? {
        let definitions = document.definitions
        if definitions.count > maxDefinitions {
            return "The query has \(definitions.count) operations and fragments; at most \(maxDefinitions) are allowed."
        }
        var counts = Counts()
        var fragments: [String: FragmentShape] = [:]
        var operations: [FragmentShape] = []
        for definition in definitions {
            switch definition {
            case let operation as OperationDefinition:
                if operation.variableDefinitions.count > maxVariables {
                    return "An operation defines \(operation.variableDefinitions.count) variables; at most \(maxVariables) are allowed."
                }
                counts.count(operation.directives)
                for variable in operation.variableDefinitions {
                    if let value = variable.defaultValue { counts.count(value) }
                }
                operations.append(FragmentShape(operation.selectionSet, counts: &counts))
            case let fragment as FragmentDefinition:
                counts.count(fragment.directives)
                fragments[fragment.name.value] = FragmentShape(fragment.selectionSet, counts: &counts)
            default:
                continue
            }
        }
        if counts.directives > maxDirectives {
            return "The query uses \(counts.directives) directives; at most \(maxDirectives) are allowed."
        }
        if counts.selections > maxSelections {
            return "The query makes \(counts.selections) selections; at most \(maxSelections) are allowed."
        }
        if counts.values > maxValues {
            return "The query writes \(counts.values) values in its arguments; at most \(maxValues) are allowed. Pass large inputs as variables."
        }
        let expanded = Self.expandedDepth(operations, fragments: fragments, limit: maxNesting)
        guard expanded > maxNesting else { return nil }
        return "The query nests more than \(maxNesting) levels of selections once its fragments are expanded; flatten it."
    }

    // MARK: - Text

    /// The deepest nesting of `{`, `[` and `(`, the longest name outside strings and comments,
    /// and the number of tokens, in one pass that stops once any is past `limits`.
    static func scan(_ text: String, stoppingAbove limits: DocumentLimits) -> (depth: Int, longestName: Int, tokens: Int) {
        var depth = 0, deepest = 0, name = 0, longestName = 0, tokens = 0
        var bytes = text.utf8[...]
        scanning: while let byte = bytes.popFirst() {
            if byte == UInt8(ascii: "_") || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            {
                if name == 0 { tokens += 1 }
                name += 1
                longestName = max(longestName, name)
                if longestName > limits.maxNameLength { break scanning }
                continue
            }
            name = 0
            // Whitespace and commas separate tokens; anything else starts one (a spread's
            // three dots count three: a bound, not the parser's count).
            if byte != UInt8(ascii: " ") && byte != UInt8(ascii: ",") && byte != UInt8(ascii: "\n") && byte != UInt8(ascii: "\t")
                && byte != UInt8(ascii: "\r") && byte != UInt8(ascii: "#")
            {
                tokens += 1
                if tokens > limits.maxTokens { break scanning }
            }
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "("):
                depth += 1
                deepest = max(deepest, depth)
                if deepest > limits.maxNesting { break scanning }
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
        return (deepest, longestName, tokens)
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

    // MARK: - Counting

    /// What a document holds, counted in one walk.
    struct Counts {
        var directives = 0
        var selections = 0
        var values = 0

        mutating func count(_ directives: [Directive]) {
            self.directives += directives.count
            for directive in directives { for argument in directive.arguments { count(argument.value) } }
        }

        /// Counts a value and everything in it; its nesting is bounded by the text check.
        mutating func count(_ value: Value) {
            values += 1
            if let list = value as? ListValue {
                for element in list.values { count(element) }
            } else if let object = value as? ObjectValue {
                for field in object.fields { count(field.value) }
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
        init(_ set: SelectionSet, counts: inout Counts) {
            walk(set, at: 1, counts: &counts)
        }

        private mutating func walk(_ set: SelectionSet, at level: Int, counts: inout Counts) {
            depth = max(depth, level)
            counts.selections += set.selections.count
            for selection in set.selections {
                switch selection {
                case let field as Field:
                    counts.count(field.directives)
                    for argument in field.arguments { counts.count(argument.value) }
                    if let sub = field.selectionSet { walk(sub, at: level + 1, counts: &counts) }
                case let inline as InlineFragment:
                    counts.count(inline.directives)
                    walk(inline.selectionSet, at: level, counts: &counts)
                case let spread as FragmentSpread:
                    counts.count(spread.directives)
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
