import DeltaSyncCore
import DeltaSyncGraphQL

/// AppSync's limits on a subscription `filter`, checked when the subscription starts. AppSync
/// turns the filter into OR-ed groups of AND-ed rules and enforces: at most 5 distinct fields,
/// 10 rules per group (an `in` counts once per value, as it expands into OR-ed rules), 5 values
/// in `in`/`notIn`, strings of at most 256 characters, and 5 levels of `and`/`or` nesting.
enum SubscriptionFilterLimits {
    static let maxFields = 5
    static let maxRulesPerGroup = 10
    static let maxListValues = 5
    static let maxStringLength = 256
    static let maxDepth = 5
    /// Not AppSync's: a bound on the groups `and` of `or`s multiply into.
    static let maxGroups = 100

    private struct Rule {
        let field: String
        let weight: Int
    }

    /// - Throws: ``AppSyncError`` (`FilterValidationError`) naming the limit exceeded.
    static func check(_ filter: JSONValue) throws(AppSyncError) {
        guard !filter.isNull else { return }
        let groups = try self.groups(filter, depth: 1)
        let fields = Set(groups.flatMap { $0.map(\.field) })
        guard fields.count <= maxFields else {
            throw failure("uses \(fields.count) fields (\(fields.sorted().joined(separator: ", "))); at most \(maxFields) are allowed")
        }
        for group in groups {
            let rules = group.reduce(0) { $0 + $1.weight }
            guard rules <= maxRulesPerGroup else {
                throw failure("has \(rules) rules in one group of AND-ed conditions (each `in` value counts); at most \(maxRulesPerGroup) are allowed")
            }
        }
    }

    /// The filter as OR-ed groups of AND-ed rules.
    private static func groups(_ filter: JSONValue, depth: Int) throws(AppSyncError) -> [[Rule]] {
        guard case .object(let object) = filter else { throw failure("is not an object") }
        var result: [[Rule]] = [[]]
        for (name, value) in object.sorted(by: { $0.key < $1.key }) where !value.isNull {
            let part: [[Rule]]
            switch name {
            case "and", "or":
                guard depth < maxDepth else { throw failure("nests and/or more than \(maxDepth) levels deep") }
                guard case .array(let operands) = value else { throw failure("has an '\(name)' that is not a list") }
                var operandGroups: [[[Rule]]] = []
                for operand in operands where !operand.isNull { operandGroups.append(try groups(operand, depth: depth + 1)) }
                part = name == "or" ? operandGroups.flatMap { $0 } : try product(operandGroups)
            default:
                part = [try rules(field: name, value)]
            }
            result = try product([result, part])
        }
        return result
    }

    private static func rules(field: String, _ operators: JSONValue) throws(AppSyncError) -> [Rule] {
        guard case .object(let object) = operators else { throw failure("gives '\(field)' a value that is not an object of operators") }
        var rules: [Rule] = []
        for (op, operand) in object where !operand.isNull {
            try checkStrings(operand, field: field)
            if op == "in" || op == "notIn" {
                let count = operand.arrayValue?.count ?? 1
                guard count <= maxListValues else {
                    throw failure("gives '\(field)' \(count) values in '\(op)'; at most \(maxListValues) are allowed")
                }
                rules.append(Rule(field: field, weight: op == "in" ? max(1, count) : 1))
            } else {
                rules.append(Rule(field: field, weight: 1))
            }
        }
        return rules
    }

    private static func checkStrings(_ value: JSONValue, field: String) throws(AppSyncError) {
        switch value {
        case .string(let s) where s.count > maxStringLength:
            throw failure("compares '\(field)' with a string of \(s.count) characters; at most \(maxStringLength) are allowed")
        case .array(let elements):
            for element in elements { try checkStrings(element, field: field) }
        default:
            break
        }
    }

    private static func product(_ parts: [[[Rule]]]) throws(AppSyncError) -> [[Rule]] {
        var result: [[Rule]] = [[]]
        for part in parts {
            guard !part.isEmpty else { continue }
            var next: [[Rule]] = []
            for left in result {
                for right in part { next.append(left + right) }
            }
            guard next.count <= maxGroups else {
                throw failure("expands into more than \(maxGroups) OR-ed groups; simplify it")
            }
            result = next
        }
        return result
    }

    private static func failure(_ problem: String) -> AppSyncError {
        AppSyncError(.filterValidation, "The subscription filter \(problem).")
    }
}
