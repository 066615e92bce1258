/// Reading a predicate from the JSON of a GraphQL filter or condition input.
extension QueryPredicate {
    /// Builds a predicate from a filter input value such as
    /// `{"and": [{"title": {"beginsWith": "a"}}], "rating": {"ge": 3, "le": 5}}`.
    ///
    /// Several operators on one field, and several fields in one object, are ANDed, as in
    /// AppSync's `toDynamoDBFilterExpression`. `null` means "no filter".
    ///
    /// - Throws: ``AppSyncError`` with `errorType` `InvalidArgumentException` naming the
    ///   offending operator when the input is not a filter, or when it is larger than `limits`
    ///   allow.
    public init(filter: JSONValue, limits: FilterLimits = FilterLimits()) throws {
        var budget = limits.maxConditions
        self = try Self(filter: filter, depth: 0, limits: limits, budget: &budget)
    }

    private init(filter: JSONValue, depth: Int, limits: FilterLimits, budget: inout Int) throws {
        guard depth <= limits.maxDepth else { throw limits.tooDeep }
        switch filter {
        case .null:
            self = .all
        case .object(let object):
            var parts: [QueryPredicate] = []
            for key in object.keys.sorted() {
                let value = object[key]!
                if value.isNull { continue }
                switch key {
                case "and", "or":
                    guard let list = value.arrayValue else {
                        throw AppSyncError(.invalidArgument, "Filter '\(key)' expects a list of filters.")
                    }
                    let children = try list.filter { !$0.isNull }.map {
                        try QueryPredicate(filter: $0, depth: depth + 1, limits: limits, budget: &budget)
                    }
                    parts.append(key == "and" ? .and(children) : .or(children))
                case "not":
                    parts.append(.not(try QueryPredicate(filter: value, depth: depth + 1, limits: limits, budget: &budget)))
                default:
                    guard let ops = value.objectValue else {
                        throw AppSyncError(.invalidArgument, "Filter for field '\(key)' must be an object of operators.")
                    }
                    for op in ops.keys.sorted() where !(ops[op]!.isNull) {
                        let operand = ops[op]!
                        // `in` and `notIn` compare against each listed value.
                        budget -= max(1, operand.arrayValue?.count ?? 1)
                        guard budget >= 0 else { throw limits.tooManyConditions }
                        parts.append(.field(key, try FieldOperator(name: op, value: operand, field: key)))
                    }
                }
            }
            self = parts.count == 1 ? parts[0] : (parts.isEmpty ? .all : .and(parts))
        default:
            throw AppSyncError(.invalidArgument, "A filter must be an object.")
        }
    }
}

extension FieldOperator {
    /// Builds an operator from its input name (`eq`, `beginsWith`, `size`, ...) and value.
    public init(name: String, value: JSONValue, field: String) throws {
        switch name {
        case "eq": self = .eq(value)
        case "ne": self = .ne(value)
        case "le": self = .le(value)
        case "lt": self = .lt(value)
        case "ge": self = .ge(value)
        case "gt": self = .gt(value)
        case "contains": self = .contains(value)
        case "notContains": self = .notContains(value)
        case "beginsWith":
            guard let s = value.stringValue else {
                throw AppSyncError(.invalidArgument, "'beginsWith' on '\(field)' expects a string.")
            }
            self = .beginsWith(s)
        case "between":
            guard let pair = value.arrayValue, pair.count == 2 else {
                throw AppSyncError(.invalidArgument, "'between' on '\(field)' expects exactly two values.")
            }
            self = .between(pair[0], pair[1])
        case "attributeExists":
            guard let b = value.boolValue else {
                throw AppSyncError(.invalidArgument, "'attributeExists' on '\(field)' expects a boolean.")
            }
            self = .attributeExists(b)
        case "attributeType":
            guard let t = value.stringValue else {
                throw AppSyncError(.invalidArgument, "'attributeType' on '\(field)' expects a type name.")
            }
            self = .attributeType(t)
        case "size":
            guard let ops = value.objectValue else {
                throw AppSyncError(.invalidArgument, "'size' on '\(field)' expects an object of operators.")
            }
            let inner = try ops.keys.sorted().filter { !(ops[$0]!.isNull) }.map {
                try FieldOperator(name: $0, value: ops[$0]!, field: field)
            }
            guard inner.count == 1, let only = inner.first else {
                throw AppSyncError(.invalidArgument, "'size' on '\(field)' expects exactly one operator.")
            }
            self = .size(only)
        case "in", "notIn":
            guard let list = value.arrayValue else {
                throw AppSyncError(.invalidArgument, "'\(name)' on '\(field)' expects a list.")
            }
            self = name == "in" ? .in(list) : .notIn(list)
        default:
            throw AppSyncError(.invalidArgument, "Unknown filter operator '\(name)' on field '\(field)'.")
        }
    }
}
