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
        case .object(let object): self = .map(VTLMap(json: object))
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

/// A Java `List`: shared by every reference to it.
public final class VTLList {
    /// The elements, in order.
    public var items: [VTLValue] {
        _read {
            if pending != nil { convert() }
            yield stored
        }
        _modify {
            if pending != nil { convert() }
            yield &stored
        }
    }

    // Unchecked: every access is through `items`, whose accessors do not overlap one another,
    // and the dynamic checks a class's properties get otherwise cost on every list operation.
    @exclusivity(unchecked) private var stored: [VTLValue]
    /// A JSON array not converted yet (``VTLValue/init(json:)``); `nil` once it is.
    @exclusivity(unchecked) private var pending: [JSONValue]?

    /// A list of `items`.
    public init(_ items: [VTLValue] = []) { stored = items }

    init(json: [JSONValue]) {
        stored = []
        pending = json
    }

    private func convert() {
        guard let json = pending else { return }
        pending = nil
        stored = json.map(VTLValue.init(json:))
    }

    /// The list as JSON; one never converted is its JSON as it came.
    var json: JSONValue {
        if let pending { return .array(pending) }
        return .array(stored.map(\.json))
    }

    /// A new list of copies of the items.
    var copied: VTLList {
        if let pending { return VTLList(json: pending) }
        return VTLList(stored.map(\.copied))
    }
}

/// A Java `LinkedHashMap`: keys in insertion order, shared by every reference to it.
public final class VTLMap {
    /// The entries, in insertion order; a map made from a JSON object has its keys sorted.
    public var entries: OrderedDictionary<String, VTLValue> {
        _read {
            if pending != nil { convert() }
            yield stored
        }
        _modify {
            if pending != nil { convert() }
            yield &stored
        }
    }

    // Unchecked: every access is through `entries`, whose accessors do not overlap one
    // another, and the dynamic checks a class's properties get otherwise cost on every lookup.
    @exclusivity(unchecked) private var stored: OrderedDictionary<String, VTLValue>
    /// A JSON object not converted yet (``VTLValue/init(json:)``); `nil` once it is.
    @exclusivity(unchecked) private var pending: [String: JSONValue]?

    /// A map of `entries`.
    public init(_ entries: OrderedDictionary<String, VTLValue> = [:]) { stored = entries }

    init(json: [String: JSONValue]) {
        stored = [:]
        pending = json
    }

    private func convert() {
        guard let json = pending else { return }
        pending = nil
        let members = json.sorted { $0.key < $1.key }
        stored = OrderedDictionary(uncheckedUniqueKeys: members.map(\.key), values: members.map { VTLValue(json: $0.value) })
    }

    /// The map as JSON; one never converted is its JSON as it came.
    var json: JSONValue {
        if let pending { return .object(pending) }
        return .object(Dictionary(uniqueKeysWithValues: stored.map { ($0.key, $0.value.json) }))
    }

    /// A new map of copies of the entries.
    var copied: VTLMap {
        if let pending { return VTLMap(json: pending) }
        return VTLMap(stored.mapValues(\.copied))
    }

    /// The JSON object the map was made from while it is not converted, for writers that can
    /// write it as it is.
    var unconverted: [String: JSONValue]? { pending }
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
