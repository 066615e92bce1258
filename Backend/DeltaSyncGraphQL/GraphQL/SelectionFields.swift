import DeltaSyncCore
import GraphQL

/// The fields of selection sets with inline fragments and fragment spreads expanded (validation
/// has already ruled out fragment cycles and type conditions that cannot apply).
package enum SelectionFields {
    /// - Parameter strict: return `nil` when a field or fragment carries a directive or a field
    ///   takes arguments, for callers that only handle plain selections.
    static func fields(in sets: [SelectionSet], fragments: [String: FragmentDefinition], strict: Bool) -> [GraphQL.Field]? {
        var result: [GraphQL.Field] = []
        for set in sets {
            for selection in set.selections {
                switch selection {
                case let field as GraphQL.Field:
                    if strict, !(field.directives.isEmpty && field.arguments.isEmpty) { return nil }
                    result.append(field)
                case let inline as InlineFragment:
                    guard !strict || inline.directives.isEmpty,
                        let inner = fields(in: [inline.selectionSet], fragments: fragments, strict: strict)
                    else { return nil }
                    result += inner
                case let spread as FragmentSpread:
                    guard !strict || spread.directives.isEmpty, let fragment = fragments[spread.name.value],
                        let inner = fields(in: [fragment.selectionSet], fragments: fragments, strict: strict)
                    else { return nil }
                    result += inner
                default:
                    if strict { return nil }
                }
            }
        }
        return result
    }

    /// The fields a request really selects: fragments expanded, `@include(if:)` and
    /// `@skip(if:)` applied with the request's variables.
    package static func included(
        in set: SelectionSet, fragments: [String: FragmentDefinition], variables: [String: JSONValue]
    ) -> [GraphQL.Field] {
        var result: [GraphQL.Field] = []
        for selection in set.selections {
            switch selection {
            case let field as GraphQL.Field:
                if isIncluded(field.directives, variables) { result.append(field) }
            case let inline as InlineFragment:
                if isIncluded(inline.directives, variables) {
                    result += included(in: inline.selectionSet, fragments: fragments, variables: variables)
                }
            case let spread as FragmentSpread:
                if isIncluded(spread.directives, variables), let fragment = fragments[spread.name.value] {
                    result += included(in: fragment.selectionSet, fragments: fragments, variables: variables)
                }
            default:
                break
            }
        }
        return result
    }

    private static func isIncluded(_ directives: [Directive], _ variables: [String: JSONValue]) -> Bool {
        for directive in directives {
            guard let argument = directive.arguments.first(where: { $0.name.value == "if" }) else { continue }
            let condition: Bool
            switch argument.value {
            case let literal as BooleanValue: condition = literal.value
            case let variable as Variable: condition = variables[variable.name.value]?.boolValue ?? false
            default: continue
            }
            if directive.name.value == "include", !condition { return false }
            if directive.name.value == "skip", condition { return false }
        }
        return true
    }
}
