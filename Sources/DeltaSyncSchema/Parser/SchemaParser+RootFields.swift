import GraphQL

/// Checks over the whole schema's generated root fields, once every model is built.
extension SchemaParser {
    /// Two models may not generate the same root field (an index `queryField` equal to another
    /// model's `listX`, a renamed mutation equal to a default one): the AppSync schema would not
    /// build.
    ///
    /// AppSync also needs a `Query` type, so some model must keep a query.
    func checkRootFields(_ drafts: [ModelDraft]) throws(SchemaError) {
        var taken: Set<String> = []
        for draft in drafts {
            let operations = draft.model.operations
            let fields: [(root: String, name: String?)] = [
                ("Query", operations.get), ("Query", operations.list), ("Query", operations.sync),
                ("Mutation", operations.create), ("Mutation", operations.update), ("Mutation", operations.delete),
                ("Subscription", operations.onCreate), ("Subscription", operations.onUpdate),
                ("Subscription", operations.onDelete),
            ]
            for case (let root, let name?) in fields where !taken.insert("\(root).\(name)").inserted {
                throw SchemaError(at: draft.location, "\(root) field '\(name)' of model '\(draft.name)' is generated twice")
            }
        }
        for draft in drafts {
            for index in draft.model.indexes {
                guard let queryField = index.queryField, !taken.insert("Query.\(queryField)").inserted else { continue }
                throw SchemaError(
                    at: draft.indexLocations[index.name] ?? draft.location,
                    "queryField '\(queryField)' of index '\(index.name)' on '\(draft.name)' is already a query field"
                )
            }
        }
        guard taken.contains(where: { $0.hasPrefix("Query.") }) else {
            throw SchemaError(
                file: documents.first?.loc?.source.name ?? "<input>", line: 0, column: 0,
                message: drafts.isEmpty
                    ? "the schema declares no @model type"
                    : "no model generates a query, and AppSync needs one; remove `queries: null` from a @model"
            )
        }
    }
}
