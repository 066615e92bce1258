import DeltaSyncCore
import DeltaSyncDynamoDB
import Testing

/// Random condition trees written as expression text (with minimal or full parentheses, so
/// precedence is exercised) and evaluated on random items by ``ConditionExpression`` and by a
/// reference built here from Swift closures over plain JSON, with DynamoDB's rules restated.
struct ConditionDifferentialTests {
    @Test(arguments: [1, 7, 2026])
    func conditionsAgreeWithTheReference(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let items = (0..<25).map { _ in Generator.item(&random) }
        for _ in 0..<300 {
            var generator = Generator()
            let tree = generator.tree(&random, depth: 4)
            let minimal = random.next() % 2 == 0
            let text = tree.text(minimal: minimal)
            let expression = try ConditionExpression(text, attributes: try attributes(generator.names, generator.values))
            for item in items {
                #expect(expression.evaluate(item) == tree.reference(item), "\(text) on \(JSONValue.object(item).jsonText)")
            }
        }
    }
}

/// A condition with its text and its reference meaning.
private indirect enum Tree {
    case leaf(text: String, reference: @Sendable (Item) -> Bool)
    case and(Tree, Tree)
    case or(Tree, Tree)
    case not(Tree)

    var precedence: Int {
        switch self {
        case .or: return 1
        case .and: return 2
        case .not: return 3
        case .leaf: return 4
        }
    }

    /// The text, with parentheses where precedence needs them (`minimal`) or around every
    /// operand of `AND`, `OR` and `NOT`.
    func text(minimal: Bool) -> String {
        func wrap(_ tree: Tree, _ needed: Int) -> String {
            let inner = tree.text(minimal: minimal)
            return !minimal || tree.precedence < needed ? "(\(inner))" : inner
        }
        switch self {
        case .leaf(let text, _): return text
        case .and(let left, let right): return "\(wrap(left, 2)) AND \(wrap(right, 2))"
        case .or(let left, let right): return "\(wrap(left, 1)) or \(wrap(right, 1))"
        case .not(let inner): return "NOT \(wrap(inner, 3))"
        }
    }

    func reference(_ item: Item) -> Bool {
        switch self {
        case .leaf(_, let reference): return reference(item)
        case .and(let left, let right): return left.reference(item) && right.reference(item)
        case .or(let left, let right): return left.reference(item) || right.reference(item)
        case .not(let inner): return !inner.reference(item)
        }
    }
}

/// Random items, paths, values and conditions; it collects the names and values it uses.
private struct Generator {
    var names: [String: String] = [:]
    var values: [String: JSONValue] = [:]

    static let scalars: [JSONValue] = [-2, 0, 1, 3, 0.5, 2.5, "", "a", "ab", "b", "B", "é", true, false, nil]
    static let paths: [(String, @Sendable (Item) -> JSONValue?)] = [
        ("a", { $0["a"] }), ("b", { $0["b"] }), ("c", { $0["c"] }), ("missing", { $0["missing"] }),
        ("m.x", { $0["m"]?.objectValue?["x"] }),
        ("l[0]", { element($0["l"], 0) }), ("l[1]", { element($0["l"], 1) }),
        ("l", { $0["l"] }), ("m", { $0["m"] }),
    ]

    /// A list's element; `nil` (not JSON's null) when there is none.
    static func element(_ list: JSONValue?, _ index: Int) -> JSONValue? {
        guard case .array(let elements)? = list, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    static func item(_ random: inout SplitMix64) -> Item {
        var item: Item = [:]
        for name in ["a", "b", "c"] where random.next() % 4 != 0 { item[name] = random.pick(scalars) }
        if random.next() % 2 == 0 { item["m"] = ["x": random.pick(scalars)] }
        if random.next() % 2 == 0 { item["l"] = .array((0..<Int(random.next() % 3)).map { _ in random.pick(["a", "b", 1, 2, "ab"]) }) }
        return item
    }

    mutating func tree(_ random: inout SplitMix64, depth: Int) -> Tree {
        guard depth > 0, random.next() % 3 != 0 else { return leaf(&random) }
        switch random.next() % 3 {
        case 0: return .and(tree(&random, depth: depth - 1), tree(&random, depth: depth - 1))
        case 1: return .or(tree(&random, depth: depth - 1), tree(&random, depth: depth - 1))
        default: return .not(tree(&random, depth: depth - 1))
        }
    }

    /// A path's text, through an `#name` for its first segment half the time.
    private mutating func path(_ random: inout SplitMix64) -> (String, @Sendable (Item) -> JSONValue?) {
        let (text, read) = random.pick(Self.paths)
        guard random.next() % 2 == 0 else { return (text, read) }
        let placeholder = "#n\(names.count)"
        let first = String(text.prefix { $0.isLetter })
        names[placeholder] = first
        return (placeholder + text.dropFirst(first.count), read)
    }

    private mutating func value(_ plain: JSONValue) -> String {
        let placeholder = ":v\(values.count)"
        values[placeholder] = AttributeValue.typed(fromPlain: plain)
        return placeholder
    }

    private mutating func leaf(_ random: inout SplitMix64) -> Tree {
        let (path, read) = path(&random)
        switch random.next() % 8 {
        case 0, 1:
            let op = random.pick(["=", "<>", "<", "<=", ">", ">="])
            let other = random.pick(Self.scalars)
            let text = random.next() % 2 == 0 ? "\(path) \(op) \(value(other))" : "\(value(other)) \(Reference.mirror(op)) \(path)"
            return .leaf(text: text) { Reference.compare(read($0), op, other) }
        case 2:
            let bounds = random.next() % 2 == 0 ? [JSONValue.int(Int(random.next() % 4)), .int(Int(random.next() % 4))] : [random.pick(["", "a", "b"]), random.pick(["a", "ab", "c"])]
            let (low, high) = Reference.order(bounds[0], bounds[1])! <= 0 ? (bounds[0], bounds[1]) : (bounds[1], bounds[0])
            return .leaf(text: "\(path) BETWEEN \(value(low)) AND \(value(high))") {
                Reference.compare(read($0), ">=", low) && Reference.compare(read($0), "<=", high)
            }
        case 3:
            let options = (0...(random.next() % 3)).map { _ in random.pick(Self.scalars) }
            let texts = options.map { value($0) }.joined(separator: ", ")
            return .leaf(text: "\(path) in (\(texts))") { item in options.contains { Reference.compare(read(item), "=", $0) } }
        case 4:
            let exists = random.next() % 2 == 0
            return .leaf(text: "\(exists ? "attribute_exists" : "attribute_not_exists")(\(path))") { (read($0) != nil) == exists }
        case 5:
            let prefix = random.pick(["", "a", "é", "b"])
            return .leaf(text: "begins_with(\(path), \(value(.string(prefix))))") {
                guard case .string(let text)? = read($0) else { return false }
                return Array(text.utf8).starts(with: Array(prefix.utf8))
            }
        case 6:
            let element = random.pick(Self.scalars + ["a", "b", 1])
            return .leaf(text: "contains(\(path), \(value(element)))") { Reference.contains(read($0), element) }
        default:
            if random.next() % 2 == 0 {
                let type = random.pick(["S", "N", "BOOL", "NULL", "L", "M", "SS", "NS"])
                return .leaf(text: "attribute_type(\(path), \(value(.string(type))))") { read($0).map { Reference.hasType($0, type) } ?? false }
            }
            let op = random.pick(["=", "<", ">="])
            let size = JSONValue.int(Int(random.next() % 3))
            return .leaf(text: "size(\(path)) \(op) \(value(size))") { Reference.compare(read($0).flatMap(Reference.size), op, size) }
        }
    }
}

/// DynamoDB's rules on plain JSON, restated without the library.
private enum Reference {
    static func mirror(_ op: String) -> String {
        ["<": ">", "<=": ">=", ">": "<", ">=": "<="][op] ?? op
    }

    static func number(_ value: JSONValue) -> Double? {
        switch value {
        case .int(let int): return Double(int)
        case .double(let double): return double
        default: return nil
        }
    }

    static func order(_ a: JSONValue, _ b: JSONValue) -> Int? {
        if let x = number(a), let y = number(b) { return x < y ? -1 : (x == y ? 0 : 1) }
        if case .string(let x) = a, case .string(let y) = b {
            let (p, q) = (Array(x.utf8), Array(y.utf8))
            return p == q ? 0 : (p.lexicographicallyPrecedes(q) ? -1 : 1)
        }
        return nil
    }

    static func equal(_ a: JSONValue, _ b: JSONValue) -> Bool {
        if let o = order(a, b) { return o == 0 }
        switch (a, b) {
        case (.bool(let x), .bool(let y)): return x == y
        case (.null, .null): return true
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { equal($0, $1) }
        case (.object(let x), .object(let y)): return Set(x.keys) == Set(y.keys) && x.allSatisfy { equal($0.value, y[$0.key]!) }
        default: return false
        }
    }

    static func compare(_ a: JSONValue?, _ op: String, _ b: JSONValue?) -> Bool {
        guard let a, let b else { return op == "<>" }
        switch op {
        case "=": return equal(a, b)
        case "<>": return !equal(a, b)
        default:
            guard let o = order(a, b) else { return false }
            return ["<": o < 0, "<=": o <= 0, ">": o > 0, ">=": o >= 0][op]!
        }
    }

    static func contains(_ container: JSONValue?, _ element: JSONValue) -> Bool {
        switch container {
        case .string(let text)?:
            guard case .string(let part) = element else { return false }
            let (whole, piece) = (Array(text.utf8), Array(part.utf8))
            return piece.isEmpty || (0...max(0, whole.count - piece.count)).contains { whole.count >= piece.count && Array(whole[$0..<$0 + piece.count]) == piece }
        case .array(let elements)?: return elements.contains { equal($0, element) }
        default: return false
        }
    }

    static func size(_ value: JSONValue) -> JSONValue? {
        switch value {
        case .string(let text): return .int(text.utf8.count)
        case .array(let elements): return .int(elements.count)
        case .object(let members): return .int(members.count)
        default: return nil
        }
    }

    static func hasType(_ value: JSONValue, _ type: String) -> Bool {
        switch (value, type) {
        case (.string, "S"), (.int, "N"), (.double, "N"), (.bool, "BOOL"), (.null, "NULL"), (.array, "L"), (.object, "M"): return true
        case (.array(let elements), "SS"):
            return !elements.isEmpty && elements.allSatisfy { $0.stringValue != nil } && Set(elements).count == elements.count
        case (.array(let elements), "NS"):
            return !elements.isEmpty && elements.allSatisfy { number($0) != nil } && Set(elements.map { number($0)! }).count == elements.count
        default: return false
        }
    }
}

/// A seeded generator (SplitMix64), so a failure reproduces.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func pick<T>(_ options: [T]) -> T {
        options[Int(next() % UInt64(options.count))]
    }
}
