import DeltaSyncCore
import OrderedCollections

/// A value a template works with, as Velocity's Java objects behave: maps and lists are shared
/// references (`$map.put` changes the map every variable holding it sees), numbers keep Java's
/// integer and decimal kinds.
///
/// ```swift
/// let input = VTLValue(json: ["name": "Ada", "tags": ["a"]])
/// input.json   // back to JSONValue
/// ```
public enum VTLValue {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case list(VTLList)
    case map(VTLMap)

    /// A JSON value as a template sees it: objects become maps, arrays lists. Their members are
    /// converted when the template first reads the map or list, one level at a time, so a
    /// context's branches a template never reads cost nothing.
    public init(json: JSONValue) {
        switch json {
        case .null: self = .null
        case .bool(let value): self = .bool(value)
        case .int(let value): self = .int(value)
        case .double(let value): self = .double(value)
        case .string(let value): self = .string(value)
        case .array(let values): self = .list(VTLList(json: values))
        case .object(let object): self = .map(VTLMap(.json(object)))
        }
    }

    /// The value as JSON (`$util.toJson`): maps become objects, lists arrays.
    public var json: JSONValue {
        switch self {
        case .null: return .null
        case .bool(let value): return .bool(value)
        case .int(let value): return .int(value)
        case .double(let value): return .double(value)
        case .string(let value): return .string(value)
        case .list(let list): return list.json
        case .map(let map): return map.json
        }
    }

    /// A copy whose lists and maps are new, so later changes to the original do not show.
    var copied: VTLValue {
        switch self {
        case .list(let list): return .list(list.copied)
        case .map(let map): return .map(map.copied)
        default: return self
        }
    }

    /// Velocity's truth: only `false` and `null` are false.
    var isTrue: Bool {
        switch self {
        case .null: return false
        case .bool(let value): return value
        default: return true
        }
    }

    var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// How the value prints into the output, as Java's `toString()`: `{a=1, b=x}`, `[1, 2]`.
    var rendered: String {
        switch self {
        case .null: return ""
        case .bool(let value): return value ? "true" : "false"
        case .int(let value): return String(value)
        case .double(let value): return Self.javaDouble(value)
        case .string(let value): return value
        case .list(let list): return "[" + list.items.map(\.rendered).joined(separator: ", ") + "]"
        case .map(let map): return "{" + map.entries.map { "\($0.key)=\($0.value.rendered)" }.joined(separator: ", ") + "}"
        }
    }

    /// `Double.toString()`: `1.0`, `2.5`, no exponent for ordinary values.
    static func javaDouble(_ value: Double) -> String {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) + ".0" }
        return String(value)
    }

    /// The Java type name `$util.typeOf` and errors use.
    var typeName: String {
        switch self {
        case .null: return "Null"
        case .bool: return "Boolean"
        case .int, .double: return "Number"
        case .string: return "String"
        case .list: return "List"
        case .map: return "Map"
        }
    }
}

extension VTLValue: Equatable {
    /// Java's `equals`: numbers compare by value across kinds, lists and maps by contents.
    public static func == (lhs: VTLValue, rhs: VTLValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.int(let a), .int(let b)): return a == b
        case (.int(let a), .double(let b)): return Double(a) == b
        case (.double(let a), .int(let b)): return a == Double(b)
        case (.double(let a), .double(let b)): return a == b
        case (.list(let a), .list(let b)): return a === b || a.items == b.items
        case (.map(let a), .map(let b)): return a === b || a.entries == b.entries
        default: return false
        }
    }
}
