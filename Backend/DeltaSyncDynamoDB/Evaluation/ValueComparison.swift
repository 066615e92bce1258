import Foundation

/// DynamoDB's comparisons of two values: numbers by value, strings by their UTF-8 bytes,
/// binary by its bytes; values of different types are never equal and never ordered.
///
/// Items hold plain JSON, where a set is a list and binary is its base64 text, so a set from
/// `expressionValues` equals a stored list of the same elements in any order, and a `B` value
/// equals a stored string of the same base64 text.
enum ValueComparison {
    /// `-1`, `0` or `1` for two strings, two numbers or two binaries; `nil` otherwise.
    static func order(_ a: AttributeValue, _ b: AttributeValue) -> Int? {
        switch (a, b) {
        case (.string(let x), .string(let y)): return compare(Array(x.utf8), Array(y.utf8))
        case (.number(let x), .number(let y)): return x < y ? -1 : (x == y ? 0 : 1)
        case (.binary(let x), .binary(let y)):
            guard let xBytes = bytes(x), let yBytes = bytes(y) else { return nil }
            return compare(xBytes, yBytes)
        default: return nil
        }
    }

    static func equal(_ a: AttributeValue, _ b: AttributeValue) -> Bool {
        switch (a, b) {
        case (.string(let x), .string(let y)), (.binary(let x), .binary(let y)),
            (.string(let x), .binary(let y)), (.binary(let x), .string(let y)):
            return x == y
        case (.number(let x), .number(let y)): return x == y
        case (.bool(let x), .bool(let y)): return x == y
        case (.null, .null): return true
        case (.list(let x), .list(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { equal($0, $1) }
        case (.map(let x), .map(let y)):
            return x.count == y.count && x.allSatisfy { key, value in y[key].map { equal(value, $0) } ?? false }
        default:
            guard let x = setMembers(a, like: b), let y = setMembers(b, like: a) else { return false }
            return x == y
        }
    }

    /// The elements of a set, or of a list read as the set `other` is, for comparing sets; `nil`
    /// when neither value is a set or the list holds an element the set type cannot.
    private static func setMembers(_ value: AttributeValue, like other: AttributeValue) -> Set<AttributeValue>? {
        if let elements = value.setElements { return Set(elements.map(normalised)) }
        guard case .list(let elements) = value, let kind = other.setElements.map({ _ in other.typeName }) else { return nil }
        guard elements.allSatisfy({ fits($0, in: kind) }) else { return nil }
        return Set(elements.map(normalised))
    }

    /// Whether a list element may be an element of a set of type `kind` (`SS`, `NS`, `BS`).
    static func fits(_ element: AttributeValue, in kind: String) -> Bool {
        switch (element, kind) {
        case (.string, "SS"), (.string, "BS"), (.binary, "BS"), (.number, "NS"): return true
        default: return false
        }
    }

    /// Binary as the text it is stored as, so a `B` value and a stored string hash alike.
    private static func normalised(_ value: AttributeValue) -> AttributeValue {
        if case .binary(let text) = value { return .string(text) }
        return value
    }

    static func bytes(_ base64: String) -> [UInt8]? {
        Data(base64Encoded: base64).map(Array.init)
    }

    private static func compare(_ x: [UInt8], _ y: [UInt8]) -> Int {
        x == y ? 0 : (x.lexicographicallyPrecedes(y) ? -1 : 1)
    }
}
