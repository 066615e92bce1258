/// A filter or condition over items, as the `Model<X>FilterInput` / `ConditionInput` /
/// `ModelSubscription<X>FilterInput` GraphQL inputs express it.
///
/// Storage compiles a predicate to parameterised SQL; conditions, subscriptions and the client
/// evaluate it in memory with ``matches(_:)``. Both follow DynamoDB's comparison rules, which is
/// what AppSync's generated resolvers run on.
///
/// ```swift
/// let p = try QueryPredicate(filter: ["rating": ["gt": 4], "or": [["status": ["eq": "active"]]]])
/// p.matches(["rating": 5, "status": "active"])  // true
/// ```
public indirect enum QueryPredicate: Sendable, Equatable {
    /// Matches every item (an absent or empty filter).
    case all
    case and([QueryPredicate])
    case or([QueryPredicate])
    case not(QueryPredicate)
    /// A condition on one field of the item.
    case field(String, FieldOperator)
}

/// One operator of a `Model<Scalar>Input`, applied to a field.
public indirect enum FieldOperator: Sendable, Equatable {
    case eq(JSONValue)
    case ne(JSONValue)
    case le(JSONValue)
    case lt(JSONValue)
    case ge(JSONValue)
    case gt(JSONValue)
    /// Substring of a string, or element of a list.
    case contains(JSONValue)
    case notContains(JSONValue)
    case beginsWith(String)
    /// Inclusive range, as DynamoDB's `BETWEEN`.
    case between(JSONValue, JSONValue)
    case attributeExists(Bool)
    /// DynamoDB type names: `string`, `number`, `bool`, `list`, `map`, `_null`, ...
    case attributeType(String)
    /// Applies the inner operator to the length of a string, list or map.
    case size(FieldOperator)
    /// Subscription filters only.
    case `in`([JSONValue])
    case notIn([JSONValue])
}

extension QueryPredicate {
    /// The predicate as a flat conjunction list, `[]` for ``all``.
    public var conjuncts: [QueryPredicate] {
        switch self {
        case .all: return []
        case .and(let parts): return parts.flatMap(\.conjuncts)
        default: return [self]
        }
    }

    /// Both predicates (AND), flattened, with ``all`` dropped.
    public func conjoined(with other: QueryPredicate) -> QueryPredicate {
        let parts = conjuncts + other.conjuncts
        switch parts.count {
        case 0: return .all
        case 1: return parts[0]
        default: return .and(parts)
        }
    }
}

extension QueryPredicate {
    /// Every field the predicate reads, for checking that the caller may read each one: a
    /// filter on a field the caller may not read would reveal its values a page at a time.
    public var fieldNames: Set<String> {
        switch self {
        case .all: return []
        case .and(let parts), .or(let parts): return parts.reduce(into: []) { $0.formUnion($1.fieldNames) }
        case .not(let inner): return inner.fieldNames
        case .field(let name, _): return [name]
        }
    }
}
