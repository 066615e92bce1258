/// The `Query`, `Mutation` and `Subscription` types, with the operations each model keeps.
extension AppSyncPrinter {
    mutating func printQuery() {
        var fields: [SDLField] = []
        for model in schema.models {
            fields += queryFields(model)
        }
        fields += customFields(.query)
        if !fields.isEmpty {
            writer.block("type Query", fields.map(\.text))
        }
    }

    mutating func printMutation() {
        var fields: [SDLField] = []
        for model in schema.models {
            let operations = [
                (model.operations.create, model.createInputTypeName),
                (model.operations.update, model.updateInputTypeName),
                (model.operations.delete, model.deleteInputTypeName),
            ]
            let kinds: [ModelOperation] = [.create, .update, .delete]
            for ((name, input), operation) in zip(operations, kinds) {
                guard let name else { continue }
                fields.append(SDLField(
                    name: name, arguments: [("input", "\(input)!"), ("condition", model.conditionInputTypeName)],
                    type: model.name, directive: modeDirectives(model, operation)
                ))
            }
        }
        fields += customFields(.mutation)
        if !fields.isEmpty {
            writer.block("type Mutation", fields.map(\.text))
        }
    }

    /// The schema's own `Query` or `Mutation` fields, as written (their `@function`s are how
    /// they are resolved, not part of the API), with the mode directives of the API's modes.
    private func customFields(_ parent: CustomOperation.Parent) -> [SDLField] {
        schema.customOperations.filter { $0.parent == parent }.map { operation in
            let modes = operation.modeDirectives?.filter { directives.modes.contains($0) }
            return SDLField(
                name: operation.name, arguments: operation.arguments.map { ($0.name, $0.type) }, type: operation.returnType,
                directive: modes.flatMap { $0.isEmpty ? nil : AuthModeDirectives.text($0) })
        }
    }

    /// Subscription inputs are printed only with the `Subscription` type that uses them.
    mutating func printSubscription() {
        var fields: [SDLField] = []
        var filtered: [ModelSchema] = []
        for model in schema.models {
            let operations = [
                (model.operations.onCreate, model.operations.create),
                (model.operations.onUpdate, model.operations.update),
                (model.operations.onDelete, model.operations.delete),
            ]
            for case (let name?, let mutation?) in operations {
                let directive = "@aws_subscribe(mutations: [\"\(mutation)\"])"
                fields.append(SDLField(
                    name: name,
                    arguments: [("filter", model.subscriptionFilterInputTypeName)]
                        + model.subscriptionOwnerArguments.map { ($0, "String") },
                    type: model.name,
                    directive: [directive, modeDirectives(model, .listen)].compactMap { $0 }.joined(separator: " ")
                ))
                if filtered.last?.name != model.name {
                    filtered.append(model)
                }
            }
        }
        for custom in schema.customSubscriptions {
            let mutations = custom.mutations.map { "\"\($0)\"" }.joined(separator: ", ")
            fields.append(SDLField(
                name: custom.name, arguments: custom.arguments.map { ($0.name, $0.type) }, type: custom.returnType,
                directive: "@aws_subscribe(mutations: [\(mutations)])"
            ))
        }
        guard !fields.isEmpty else { return }
        if !filtered.isEmpty { printSubscriptionScalarInputs() }
        for model in filtered {
            printSubscriptionFilter(model)
        }
        writer.block("type Subscription", fields.map(\.text))
    }

    /// The mode directives of one of the model's root fields, or `nil`.
    private func modeDirectives(_ model: ModelSchema, _ operation: ModelOperation) -> String? {
        directives.rootModes(model, operation).map(AuthModeDirectives.text)
    }

    // MARK: - Queries

    private func queryFields(_ model: ModelSchema) -> [SDLField] {
        var fields: [SDLField] = []
        let page: [(name: String, type: String)] = [("limit", "Int"), ("nextToken", "String")]
        let filter = ("filter", model.filterInputTypeName)
        if let get = model.operations.get {
            fields.append(SDLField(
                name: get, arguments: keyArguments(model.primaryKey.fields, of: model), type: model.name,
                directive: modeDirectives(model, .get)
            ))
        }
        if let list = model.operations.list {
            fields.append(SDLField(
                name: list, arguments: listArguments(model), type: model.connectionTypeName,
                directive: modeDirectives(model, .list)
            ))
        }
        if let sync = model.operations.sync {
            fields.append(SDLField(
                name: sync, arguments: [filter] + page + [("lastSync", "AWSTimestamp")], type: model.connectionTypeName,
                directive: modeDirectives(model, .sync)
            ))
        }
        for index in model.indexes {
            guard let queryField = index.queryField else { continue }
            let key = KeyShape(model: model, index: index)
            var arguments = keyArguments([index.partitionField], of: model)
            if let sortKey = key.sortKeyArgument(boundFields: 1) {
                arguments.append(sortKey)
            }
            arguments += [("sortDirection", "ModelSortDirection"), filter] + page
            fields.append(SDLField(
                name: queryField, arguments: arguments, type: model.connectionTypeName,
                directive: modeDirectives(model, .list)
            ))
        }
        return fields
    }

    /// With the default `id` key the list query only pages and filters; with a custom primary
    /// key it also takes the partition value, a sort key condition and a direction, as Amplify's.
    private func listArguments(_ model: ModelSchema) -> [(name: String, type: String)] {
        let trailing: [(name: String, type: String)] = [
            ("filter", model.filterInputTypeName), ("limit", "Int"), ("nextToken", "String"),
        ]
        guard model.primaryKey != PrimaryKey() else { return trailing }
        let partition = model.field(named: model.primaryKey.partitionField)
        var arguments = [(model.primaryKey.partitionField, partition?.type.graphQLName ?? "ID")]
        if let sortKey = KeyShape(model: model, index: nil).sortKeyArgument(boundFields: 1) {
            arguments.append(sortKey)
        }
        return arguments + trailing + [("sortDirection", "ModelSortDirection")]
    }

    /// Required arguments for key fields: `getPost(id: ID!)`, `getReaction(postID: ID!, userID: ID!)`.
    private func keyArguments(_ names: [String], of model: ModelSchema) -> [(name: String, type: String)] {
        names.map { name in (name, "\(model.field(named: name)?.type.graphQLName ?? "ID")!") }
    }
}
