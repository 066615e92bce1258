import GraphQL

extension Document {
    /// The document's fragments by name (validation has ruled out duplicates).
    package var fragmentsByName: [String: FragmentDefinition] {
        Dictionary(
            definitions.compactMap { $0 as? FragmentDefinition }.map { ($0.name.value, $0) },
            uniquingKeysWith: { first, _ in first })
    }
}

/// The named type under any list and non-null wrappers (`[Post!]!` -> `Post`).
package func namedType(of type: GraphQLType) -> GraphQLType {
    if let nonNull = type as? GraphQLNonNull { return namedType(of: nonNull.ofType) }
    if let list = type as? GraphQLList { return namedType(of: list.ofType) }
    return type
}
