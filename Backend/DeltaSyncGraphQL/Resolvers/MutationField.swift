import DeltaSyncCore
import GraphQL

/// The mutation field a resolver runs for: its name (for conflict records and Lambda
/// requests) and its selection (the shape of a conflict's `errors[].data`). Built from the
/// executor's resolve info, or by ``MutationShortcut``, which runs without the executor.
struct MutationField: @unchecked Sendable {
    // AST nodes are immutable values of the parsed request; they are only read.
    let name: String
    let selections: [SelectionSet]
    let fragments: [String: FragmentDefinition]
    /// The request's variables: `@include(if: $x)` and `@skip(if: $x)` shape error data too.
    let variables: [String: JSONValue]

    init(
        name: String, selections: [SelectionSet], fragments: [String: FragmentDefinition],
        variables: [String: JSONValue] = [:]
    ) {
        self.name = name
        self.selections = selections
        self.fragments = fragments
        self.variables = variables
    }

    init(_ info: GraphQLResolveInfo) {
        self.init(
            name: info.fieldName, selections: info.fieldASTs.compactMap(\.selectionSet), fragments: info.fragments,
            variables: info.variableValues.compactMapValues { ($0 as? Map).map(JSONValue.init) })
    }
}
