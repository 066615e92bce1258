import DeltaSyncCore
import GraphQL
import OrderedCollections

/// Conversions between the GraphQL library's `Map` and ``JSONValue``, and from stored values to
/// what the executor resolves fields from.
extension JSONValue {
    init(_ map: Map) {
        switch map {
        case .undefined, .null: self = .null
        case .bool(let b): self = .bool(b)
        case .number(let n):
            switch n.storageType {
            case .int, .bool: self = .int(n.intValue)
            case .double, .unknown:
                let d = n.doubleValue
                self = d.rounded() == d && abs(d) < 9.2e18 && n.storageType == .unknown ? .int(Int(d)) : .double(d)
            }
        case .string(let s): self = .string(s)
        case .array(let a): self = .array(a.map(JSONValue.init))
        case .dictionary(let d):
            var object: [String: JSONValue] = [:]
            for (key, value) in d where !value.isUndefined { object[key] = JSONValue(value) }
            self = .object(object)
        }
    }

    var map: Map {
        switch self {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int(let i): return .int(i)
        case .double(let d): return .double(d)
        case .string(let s): return .string(s)
        case .array(let a): return .array(a.map(\.map))
        case .object(let o):
            var dict = OrderedDictionary<String, Map>()
            for key in o.keys.sorted() { dict[key] = o[key]!.map }
            return .dictionary(dict)
        }
    }

    /// The value as the executor's default resolver reads it: objects become
    /// ``EmbeddedObject``s (missing keys resolve to null), scalars their Swift values.
    var resolvable: (any Sendable)? {
        switch self {
        case .null: return nil
        case .bool(let b): return b
        case .int(let i): return i
        case .double(let d): return d
        case .string(let s): return s
        case .array(let a): return a.map { $0.resolvable as (any Sendable)? }
        case .object(let o): return EmbeddedObject(fields: o)
        }
    }
}

extension Map {
    /// Argument lookup that treats `undefined` as absent.
    func argument(_ name: String) -> JSONValue? {
        guard case .dictionary(let d) = self, let value = d[name], !value.isUndefined else { return nil }
        return JSONValue(value)
    }
}
