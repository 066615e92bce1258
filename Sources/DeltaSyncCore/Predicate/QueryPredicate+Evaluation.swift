/// In-memory evaluation with DynamoDB's semantics: values of different types never compare,
/// strings compare by UTF-8 bytes, and a missing attribute fails every comparison except `ne`
/// and `notContains`.
extension QueryPredicate {
    /// Whether `item` satisfies the predicate.
    public func matches(_ item: Item) -> Bool {
        switch self {
        case .all: return true
        case .and(let parts): return parts.allSatisfy { $0.matches(item) }
        case .or(let parts): return parts.contains { $0.matches(item) }
        case .not(let inner): return !inner.matches(item)
        case .field(let name, let op): return op.matches(item[name] ?? .null)
        }
    }
}

extension FieldOperator {
    /// Whether a field value satisfies the operator.
    public func matches(_ value: JSONValue) -> Bool {
        switch self {
        case .eq(let v): return value.isNull ? v.isNull : JSONValue.compare(value, v) == 0
        case .ne(let v): return value.isNull ? !v.isNull : JSONValue.compare(value, v) != 0
        case .le(let v): return JSONValue.compare(value, v).map { $0 <= 0 } ?? false
        case .lt(let v): return JSONValue.compare(value, v).map { $0 < 0 } ?? false
        case .ge(let v): return JSONValue.compare(value, v).map { $0 >= 0 } ?? false
        case .gt(let v): return JSONValue.compare(value, v).map { $0 > 0 } ?? false
        case .contains(let v): return Self.contains(value, v)
        case .notContains(let v): return !Self.contains(value, v)
        case .beginsWith(let prefix): return value.stringValue?.utf8.starts(with: prefix.utf8) ?? false
        case .between(let lo, let hi):
            guard let a = JSONValue.compare(value, lo), let b = JSONValue.compare(value, hi) else { return false }
            return a >= 0 && b <= 0
        case .attributeExists(let exists): return exists != value.isNull
        case .attributeType(let type): return value.dynamoDBType == type
        case .size(let inner):
            let size: Int?
            switch value {
            case .string(let s): size = s.utf8.count
            case .array(let a): size = a.count
            case .object(let o): size = o.count
            default: size = nil
            }
            return size.map { inner.matches(.int($0)) } ?? false
        case .in(let list): return list.contains { JSONValue.compare(value, $0) == 0 }
        case .notIn(let list): return !list.contains { JSONValue.compare(value, $0) == 0 }
        }
    }

    private static func contains(_ value: JSONValue, _ needle: JSONValue) -> Bool {
        switch value {
        case .string(let s):
            guard let n = needle.stringValue else { return false }
            return n.isEmpty || s.contains(n)
        case .array(let elements):
            return elements.contains { JSONValue.compare($0, needle) == 0 }
        default:
            return false
        }
    }
}

extension JSONValue {
    /// Orders two scalars of the same kind: -1, 0, 1; `nil` when they do not compare
    /// (different kinds, or nulls), as in DynamoDB.
    public static func compare(_ a: JSONValue, _ b: JSONValue) -> Int? {
        switch (a, b) {
        case (.string(let x), .string(let y)):
            return x.utf8.lexicographicallyPrecedes(y.utf8) ? -1 : (x == y ? 0 : 1)
        case (.bool(let x), .bool(let y)):
            return x == y ? 0 : (x ? 1 : -1)
        case (.int(let x), .int(let y)):
            return x < y ? -1 : (x == y ? 0 : 1)
        case (.int, .double), (.double, .int), (.double, .double):
            let x = a.doubleValue!, y = b.doubleValue!
            return x < y ? -1 : (x == y ? 0 : 1)
        case (.array, .array), (.object, .object):
            return a == b ? 0 : nil
        default:
            return nil
        }
    }

    /// The DynamoDB attribute type name of this value, as `attributeType` filters use.
    public var dynamoDBType: String {
        switch self {
        case .null: return "_null"
        case .bool: return "bool"
        case .int, .double: return "number"
        case .string: return "string"
        case .array: return "list"
        case .object: return "map"
        }
    }
}
