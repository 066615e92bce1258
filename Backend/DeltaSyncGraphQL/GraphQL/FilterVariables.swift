import DeltaSyncCore
import GraphQL

/// The variables of an operation that hold filters or conditions (`ModelPostFilterInput`,
/// `ModelPostConditionInput`, `ModelSubscriptionPostFilterInput`, lists of them), checked
/// against ``FilterLimits`` before the GraphQL library coerces the request's variables.
///
/// The library validates and coerces an input object field by field against its type, which
/// is costly for large inputs: an `or` of 100,000 clauses took 19 s of CPU before the resolver
/// refused it at its 301st condition. Counted here, the same refusal costs a walk of the JSON.
struct FilterVariables: Sendable {
    /// The names of the operation's filter and condition variables.
    let names: [String]

    init(_ operation: OperationDefinition) {
        names = operation.variableDefinitions.compactMap { definition in
            Self.isFilter(definition.type) ? definition.variable.name.value : nil
        }
    }

    /// Why one of `variables`' filters is over `limits`; `nil` when none is.
    func refusal(in variables: [String: JSONValue], limits: FilterLimits) -> AppSyncError? {
        for name in names {
            guard let value = variables[name] else { continue }
            for filter in value.arrayValue ?? [value] {
                if let refusal = limits.refusal(of: filter) { return refusal }
            }
        }
        return nil
    }

    /// Whether a variable's type names a filter or condition input, as Amplify names them.
    private static func isFilter(_ type: any `Type`) -> Bool {
        switch type {
        case let named as NamedType:
            let name = named.name.value
            return name.hasPrefix("Model") && (name.hasSuffix("FilterInput") || name.hasSuffix("ConditionInput"))
        case let list as ListType:
            return isFilter(list.type)
        case let nonNull as NonNullType:
            return isFilter(nonNull.type)
        default:
            return false
        }
    }
}
