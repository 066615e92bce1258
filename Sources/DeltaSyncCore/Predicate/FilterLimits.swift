/// How large a filter or condition input may be. The store compiles a filter to one SQL
/// expression, and SQLite's parser refuses one nested about 45 `not`s deep or an `or` of
/// about 1,000 clauses (with its own error text); a bound here answers with a clear error first.
/// DynamoDB bounds filter expressions too (4 KB, 300 operators).
public struct FilterLimits: Sendable, Equatable {
    /// Levels of `and`, `or` and `not`. Default 10.
    public var maxDepth = 10
    /// Field conditions in all, each value of `in`/`notIn` counted. Default 300.
    public var maxConditions = 300

    public init() {}
}

extension FilterLimits {
    /// Why `filter` (a filter or condition input as a client sent it) is over these limits,
    /// found by counting its levels and conditions as ``QueryPredicate/init(filter:limits:)``
    /// counts them, without building anything and stopping at the first bound passed; `nil`
    /// when it is within them (whether it is a well-formed filter is not checked here).
    ///
    /// Cheap whatever the input's size: a server checks a request's filter variables with it
    /// before GraphQL coerces them, which is costly for large inputs.
    ///
    /// ```swift
    /// let huge: JSONValue = ["or": .array(Array(repeating: ["rating": ["eq": 1]], count: 100_000))]
    /// FilterLimits().refusal(of: huge)?.errorType  // .invalidArgument
    /// ```
    public func refusal(of filter: JSONValue) -> AppSyncError? {
        var budget = maxConditions
        return refusal(of: filter, depth: 0, budget: &budget)
    }

    private func refusal(of filter: JSONValue, depth: Int, budget: inout Int) -> AppSyncError? {
        guard depth <= maxDepth else { return tooDeep }
        guard case .object(let object) = filter else { return nil }
        for (key, value) in object where !value.isNull {
            switch key {
            case "and", "or":
                for child in value.arrayValue ?? [] where !child.isNull {
                    if let refusal = refusal(of: child, depth: depth + 1, budget: &budget) { return refusal }
                }
            case "not":
                if let refusal = refusal(of: value, depth: depth + 1, budget: &budget) { return refusal }
            default:
                for operand in (value.objectValue ?? [:]).values where !operand.isNull {
                    budget -= max(1, operand.arrayValue?.count ?? 1)
                    if budget < 0 { return tooManyConditions }
                }
            }
        }
        return nil
    }

    /// The refusal of a filter nested past ``maxDepth``.
    var tooDeep: AppSyncError {
        AppSyncError(.invalidArgument, "The filter nests 'and', 'or' and 'not' more than \(maxDepth) levels deep; flatten it.")
    }

    /// The refusal of a filter with more than ``maxConditions`` conditions.
    var tooManyConditions: AppSyncError {
        AppSyncError(.invalidArgument, "The filter has more than \(maxConditions) conditions (each value of 'in' and 'notIn' counts); split the query.")
    }
}
