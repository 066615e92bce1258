import OrderedCollections

/// `$util.transform.toSubscriptionFilter(filter[, ignoredFields[, rules]])`: a filter map
/// (fields with operators, `and` and `or` lists) as AppSync's subscription filter,
/// `{"filterGroup": [{"filters": [{"fieldName", "operator", "value"}]}]}`: groups are ORed,
/// the filters of a group ANDed. Several operators on one field are alternatives (one group
/// each), as AppSync documents; operators pass through as written.
enum VTLSubscriptionFilter {
    /// A filter in disjunctive form: alternatives, each a list of filters that must all hold.
    /// No alternatives means no constraint (every field ignored).
    private typealias Alternatives = [[VTLValue]]

    /// Groups beyond this are refused before they are built (AppSync allows far fewer).
    static let groupLimit = 1000

    static func filter(_ filter: VTLValue, ignoring ignored: Set<String>, rules: VTLValue, fail: (String) -> VTLUtilFailure) throws -> VTLValue {
        var alternatives = try self.alternatives(filter, ignoring: ignored, fail: fail)
        if case .map(let rules) = rules {
            // Argument 3: at least one rule must hold, beside the filter.
            var choices: Alternatives = []
            for (field, operators) in rules.entries {
                guard case .map(let map) = operators else { throw fail("the rule of '\(field)' must be a map, as {\"eq\": ...}") }
                choices += map.entries.map { [condition(field, $0.key, $0.value)] }
            }
            alternatives = try product(alternatives, choices, fail: fail)
        }
        let groups = alternatives.map { VTLValue.map(VTLMap(["filters": .list(VTLList($0))])) }
        return .map(VTLMap(["filterGroup": .list(VTLList(groups))]))
    }

    private static func alternatives(_ filter: VTLValue, ignoring ignored: Set<String>, fail: (String) -> VTLUtilFailure) throws -> Alternatives {
        if filter.isNull { return [] }
        guard case .map(let map) = filter else { throw fail("a subscription filter must be a map, not a \(filter.typeName)") }
        var result: Alternatives = []
        for (key, value) in map.entries where !value.isNull {
            let factor: Alternatives
            switch key {
            case "and", "or":
                guard case .list(let list) = value else { throw fail("'\(key)' takes a list of filter maps") }
                var members: [Alternatives] = []
                for member in list.items { members.append(try alternatives(member, ignoring: ignored, fail: fail)) }
                if key == "or" {
                    factor = members.flatMap { $0 }
                } else {
                    factor = try members.reduce([]) { try product($0, $1, fail: fail) }
                }
            default:
                if ignored.contains(key) { continue }
                guard case .map(let operators) = value else { throw fail("the filter of '\(key)' must be a map of operators, as {\"eq\": ...}") }
                factor = operators.entries.filter { !$0.value.isNull }.map { [condition(key, $0.key, $0.value)] }
            }
            result = try product(result, factor, fail: fail)
        }
        return result
    }

    /// Every alternative of `a` with every one of `b`; an empty side is no constraint.
    private static func product(_ a: Alternatives, _ b: Alternatives, fail: (String) -> VTLUtilFailure) throws -> Alternatives {
        if a.isEmpty { return b }
        if b.isEmpty { return a }
        guard a.count * b.count <= groupLimit else { throw fail("the filter makes more than \(groupLimit) filter groups") }
        return a.flatMap { left in b.map { left + $0 } }
    }

    private static func condition(_ field: String, _ op: String, _ value: VTLValue) -> VTLValue {
        .map(VTLMap(["fieldName": .string(field), "operator": .string(op), "value": value.copied]))
    }
}
