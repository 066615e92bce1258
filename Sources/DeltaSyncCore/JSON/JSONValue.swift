import Foundation

/// A JSON value: what an item, a GraphQL argument or an error's `data` holds.
///
/// Items travel between storage, resolvers and the wire as `[String: JSONValue]`
/// (see ``Item``), so every layer agrees on one representation of "null",
/// numbers and nested objects.
///
/// ```swift
/// let item: Item = ["id": "1", "rating": 4, "tags": ["a", "b"]]
/// let data = try JSONEncoder().encode(JSONValue.object(item))
/// ```
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])
}

/// A stored record: field name to value. Absent keys and `.null` both read as null.
public typealias Item = [String: JSONValue]

// MARK: - Accessors

extension JSONValue {
    public var isNull: Bool { if case .null = self { return true } else { return false } }

    public var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }

    public var boolValue: Bool? { if case .bool(let b) = self { return b } else { return nil } }

    /// The value as an integer; a double with no fractional part counts.
    public var intValue: Int? {
        switch self {
        case .int(let i): return i
        case .double(let d) where d.rounded() == d && abs(d) < 9.2e18: return Int(d)
        default: return nil
        }
    }

    /// The value as a double; integers convert.
    public var doubleValue: Double? {
        switch self {
        case .int(let i): return Double(i)
        case .double(let d): return d
        default: return nil
        }
    }

    public var arrayValue: [JSONValue]? { if case .array(let a) = self { return a } else { return nil } }

    public var objectValue: [String: JSONValue]? { if case .object(let o) = self { return o } else { return nil } }

    /// Member lookup on objects; `.null` for anything else or a missing key.
    public subscript(key: String) -> JSONValue {
        objectValue?[key] ?? .null
    }

    /// Element lookup on arrays; `.null` for anything else or an index out of range.
    public subscript(index: Int) -> JSONValue {
        guard let array = arrayValue, array.indices.contains(index) else { return .null }
        return array[index]
    }
}

// MARK: - Literals

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

// MARK: - Codable

extension JSONValue: Codable {
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let s = try? container.decode(String.self) {
            // Strings first: they are most values, and every failed attempt costs a thrown
            // error with its coding path.
            self = .string(s)
        } else if let b = try? container.decode(Bool.self) {
            self = .bool(b)
        } else if let i = try? container.decode(Int.self) {
            self = .int(i)
        } else if let d = try? container.decode(Double.self) {
            self = .double(d)
        } else if let a = try? container.decode([JSONValue].self) {
            self = .array(a)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let b): try container.encode(b)
        case .int(let i): try container.encode(i)
        case .double(let d): try container.encode(d)
        case .string(let s): try container.encode(s)
        case .array(let a): try container.encode(a)
        case .object(let o): try container.encode(o)
        }
    }
}

// MARK: - Text

extension JSONValue {
    /// Parses JSON text (as in an `AWSJSON` argument, a request body or a sync page).
    ///
    /// - Throws: an error saying what is wrong and at which byte, when the text is not JSON.
    public init(parsing text: String) throws {
        self = try JSONParser.parse(text)
    }

    /// ``init(parsing:)`` for UTF-8 text that is not a `String` yet, such as a column SQLite
    /// returns: a query decodes one per list field of every row.
    package init(parsingUTF8 bytes: UnsafeBufferPointer<UInt8>) throws {
        self = try JSONParser.parse(bytes)
    }

    /// Compact JSON text by ``JSONWriter``'s rules (sorted keys, no whitespace), stable enough
    /// to store and compare.
    public var jsonText: String {
        String(decoding: JSONWriter.bytes(self), as: UTF8.self)
    }
}

extension JSONValue {
    /// Whether every number in the value, nested ones included, is finite: JSON text has no
    /// spelling for NaN or infinity, so only such values can be written as JSON and stored.
    package var hasOnlyFiniteNumbers: Bool {
        switch self {
        case .double(let d): return d.isFinite
        case .array(let a): return a.allSatisfy(\.hasOnlyFiniteNumbers)
        case .object(let o): return o.values.allSatisfy(\.hasOnlyFiniteNumbers)
        default: return true
        }
    }
}
