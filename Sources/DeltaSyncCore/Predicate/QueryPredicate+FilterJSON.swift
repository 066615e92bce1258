/// Writing a predicate as the JSON of a GraphQL filter or condition input, the inverse of
/// ``QueryPredicate/init(filter:)``: the client sends conditions and sync expressions this way.
extension QueryPredicate {
    /// `null` for ``all``; otherwise an object such as `{"rating": {"gt": 4}}` or
    /// `{"and": [...]}`.
    public var filterInput: JSONValue {
        switch self {
        case .all: return .null
        case .and(let parts): return ["and": .array(parts.map(\.filterInput))]
        case .or(let parts): return ["or": .array(parts.map(\.filterInput))]
        case .not(let inner): return ["not": inner.filterInput]
        case .field(let name, let op): return .object([name: op.input])
        }
    }
}

extension FieldOperator {
    /// `{"<operator>": value}`.
    public var input: JSONValue {
        switch self {
        case .eq(let v): return ["eq": v]
        case .ne(let v): return ["ne": v]
        case .le(let v): return ["le": v]
        case .lt(let v): return ["lt": v]
        case .ge(let v): return ["ge": v]
        case .gt(let v): return ["gt": v]
        case .contains(let v): return ["contains": v]
        case .notContains(let v): return ["notContains": v]
        case .beginsWith(let prefix): return ["beginsWith": .string(prefix)]
        case .between(let lo, let hi): return ["between": [lo, hi]]
        case .attributeExists(let exists): return ["attributeExists": .bool(exists)]
        case .attributeType(let name): return ["attributeType": .string(name)]
        case .size(let inner): return ["size": inner.input]
        case .in(let values): return ["in": .array(values)]
        case .notIn(let values): return ["notIn": .array(values)]
        }
    }
}
