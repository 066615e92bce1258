import GraphQL

/// The mutation field a resolver runs for: its name (for conflict records and Lambda
/// requests) and its selection (the shape of a conflict's `errors[].data`). Built from the
/// executor's resolve info, or by ``MutationShortcut``, which runs without the executor.
struct MutationField: @unchecked Sendable {
    // AST nodes are immutable values of the parsed request; they are only read.
    let name: String
    let selections: [SelectionSet]
    let fragments: [String: FragmentDefinition]

    init(name: String, selections: [SelectionSet], fragments: [String: FragmentDefinition]) {
        self.name = name
        self.selections = selections
        self.fragments = fragments
    }

    init(_ info: GraphQLResolveInfo) {
        self.init(name: info.fieldName, selections: info.fieldASTs.compactMap(\.selectionSet), fragments: info.fragments)
    }
}
