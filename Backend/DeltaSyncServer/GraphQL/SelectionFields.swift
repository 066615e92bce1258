import GraphQL

/// The fields of selection sets with inline fragments and fragment spreads expanded (validation
/// has already ruled out fragment cycles and type conditions that cannot apply).
enum SelectionFields {
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
}
