import GraphQL

/// Turns parsed SDL documents into an ``AmplifySchema``.
///
/// Works in passes because directives refer across types: collect every type name, build enums
/// and non-model types, build each model's fields and keys, then resolve relations (which add
/// foreign keys and indexes to other models), generate `@manyToMany` join models, and finally
/// add timestamps so they follow every other field.
struct SchemaParser {
    private let documents: [Document]
    private var firstDeclarations: [String: GraphQL.Location?] = [:]
    private var enumDefinitions: [EnumTypeDefinition] = []
    private var nonModelDefinitions: [ObjectTypeDefinition] = []
    private var modelDefinitions: [ObjectTypeDefinition] = []
    private var rootDefinitions: [ObjectTypeDefinition] = []
    /// Model and non-model object types, in the order declared.
    private var objectDefinitions: [ObjectTypeDefinition] = []
    private var inputDefinitions: [InputObjectTypeDefinition] = []
    private var declaredDirectives: Set<String> = []

    /// Root operation types: a schema may declare custom fields on them; they are not models.
    private static let rootTypeNames: Set<String> = ["Query", "Mutation", "Subscription"]

    init(documents: [Document]) {
        self.documents = documents
    }

    mutating func parse() throws(SchemaError) -> AmplifySchema {
        try collectDefinitions()
        let enums = try buildEnums()
        let catalog = TypeCatalog(
            enums: Dictionary(uniqueKeysWithValues: enums.map { ($0.name, $0) }),
            nonModelNames: Set(nonModelDefinitions.map(\.name.value)),
            modelNames: Set(modelDefinitions.map(\.name.value)),
            declaredDirectives: declaredDirectives
        )
        let nonModels = try buildNonModels(catalog: catalog)
        for definition in rootDefinitions {
            try checkRootType(definition)
        }
        var customSubscriptions: [CustomSubscription] = []
        for definition in rootDefinitions where definition.name.value == "Subscription" {
            for field in definition.fields {
                if let subscription = try customSubscription(field) { customSubscriptions.append(subscription) }
            }
        }
        var customOperations: [CustomOperation] = []
        var inputTypes = inputDefinitions.map { definition in
            InputType(name: definition.name.value, fields: definition.fields.map(Self.typedName))
        }
        for definition in rootDefinitions {
            guard let parent = CustomOperation.Parent(rawValue: definition.name.value) else {
                // Subscription fields: their `@function`s are checked (Event is refused) but not served.
                for field in definition.fields {
                    _ = try FunctionDirective.calls(field, typeName: definition.name.value, eventResponse: eventResponseDefinition)
                }
                continue
            }
            for field in definition.fields {
                let (operation, inputs) = try customOperation(field, parent: parent)
                customOperations.append(operation)
                inputTypes += inputs
            }
        }
        let functionFields = try functionFields()

        var drafts: [ModelDraft] = []
        for definition in modelDefinitions {
            drafts.append(try ModelBuilder(definition: definition, catalog: catalog).build())
        }
        var resolver = RelationResolver(drafts: drafts)
        try resolver.resolve()
        drafts = resolver.drafts
        var manyToMany = ManyToManyBuilder(drafts: drafts, catalog: catalog)
        try manyToMany.build()
        drafts = manyToMany.drafts
        for index in drafts.indices {
            drafts[index].addTimestamps()
            try drafts[index].addAuthFields()
        }
        try checkRootFields(drafts)
        try checkCustomOperations(customOperations, rootDefinitions: rootDefinitions, models: drafts.map(\.model))
        try checkCustomSubscriptions(
            customSubscriptions, rootDefinitions: rootDefinitions, models: drafts.map(\.model), nonModels: nonModels,
            customMutations: customOperations.filter { $0.parent == .mutation })
        return AmplifySchema(
            models: drafts.map(\.model), enums: enums, nonModels: nonModels, customSubscriptions: customSubscriptions,
            customOperations: customOperations, inputTypes: inputTypes, functionFields: functionFields)
    }

    // MARK: - Collecting

    private mutating func collectDefinitions() throws(SchemaError) {
        for document in documents {
            for definition in document.definitions {
                try collect(definition)
            }
        }
    }

    private mutating func collect(_ definition: Definition) throws(SchemaError) {
        switch definition {
        case let object as ObjectTypeDefinition:
            try declare(object.name)
            let isModel = object.directives.contains { $0.name.value == "model" }
            if Self.rootTypeNames.contains(object.name.value) {
                if isModel {
                    throw SchemaError(at: object.name.loc, "root type '\(object.name.value)' cannot be a @model")
                }
                rootDefinitions.append(object)
            } else if isModel {
                modelDefinitions.append(object)
                objectDefinitions.append(object)
            } else {
                nonModelDefinitions.append(object)
                objectDefinitions.append(object)
            }
        case let enumType as EnumTypeDefinition:
            try declare(enumType.name)
            enumDefinitions.append(enumType)
        case let directive as DirectiveDefinition:
            declaredDirectives.insert(directive.name.value)
        case let scalar as ScalarTypeDefinition:
            // Some schemas declare the AWS scalars themselves; they are built in here.
            if ScalarType(rawValue: scalar.name.value) == nil {
                try declare(scalar.name)
            }
        case let input as InputObjectTypeDefinition:
            try declare(input.name)
            inputDefinitions.append(input)
        case let interface as InterfaceTypeDefinition:
            try declare(interface.name)
        case let union as UnionTypeDefinition:
            try declare(union.name)
        case is OperationDefinition, is FragmentDefinition:
            throw SchemaError(
                at: definition.loc,
                "a schema may only declare types; operations and fragments belong in client documents"
            )
        default:
            // Schema definitions and type extensions only add custom root fields: nothing to model.
            break
        }
    }

    private mutating func declare(_ name: Name) throws(SchemaError) {
        if let first = firstDeclarations[name.value] {
            throw SchemaError(at: name.loc, "duplicate type '\(name.value)'\(Self.describe(first))")
        }
        if ScalarType(rawValue: name.value) != nil {
            throw SchemaError(at: name.loc, "type '\(name.value)' redefines a built-in scalar")
        }
        firstDeclarations[name.value] = name.loc
    }

    /// ` (first declared at schema.graphql:3:6)`, or nothing when the place is unknown.
    static func describe(_ location: GraphQL.Location?) -> String {
        guard let location else { return "" }
        let position = TextPosition(text: location.source.body, utf8Offset: location.start)
        return " (first declared at \(location.source.name):\(position.line):\(position.column))"
    }

    // MARK: - Enums and non-model types

    private func buildEnums() throws(SchemaError) -> [EnumType] {
        var enums: [EnumType] = []
        for definition in enumDefinitions {
            try DirectiveCheck.check(definition.directives, allowed: [], place: "an enum", declared: declaredDirectives)
            var values: [String] = []
            for value in definition.values {
                guard !values.contains(value.name.value) else {
                    throw SchemaError(
                        at: value.name.loc,
                        "duplicate value '\(value.name.value)' in enum '\(definition.name.value)'"
                    )
                }
                try DirectiveCheck.check(value.directives, allowed: [], place: "an enum value", declared: declaredDirectives)
                values.append(value.name.value)
            }
            enums.append(EnumType(name: definition.name.value, values: values))
        }
        return enums
    }

    private func buildNonModels(catalog: TypeCatalog) throws(SchemaError) -> [NonModelType] {
        var nonModels: [NonModelType] = []
        for definition in nonModelDefinitions {
            let typeName = definition.name.value
            try DirectiveCheck.check(
                definition.directives, allowed: [], place: "a non-model type", declared: declaredDirectives
            )
            var fields: [Field] = []
            for node in definition.fields {
                let path = "\(typeName).\(node.name.value)"
                guard !fields.contains(where: { $0.name == node.name.value }) else {
                    throw SchemaError(at: node.name.loc, "duplicate field '\(path)'")
                }
                try DirectiveCheck.check(
                    node.directives, allowed: [], place: "a field of a non-model type", declared: declaredDirectives
                )
                let field = try catalog.field(node, path: path)
                if case .model(let model) = field.type {
                    throw SchemaError(
                        at: node.type.loc,
                        "non-model type field '\(path)' cannot hold @model type '\(model)'; use a relation on a model"
                    )
                }
                fields.append(field)
            }
            nonModels.append(NonModelType(name: typeName, fields: fields))
        }
        return nonModels
    }

    /// Custom root fields are not served yet, but their directives are still checked so a typo
    /// is reported the same way everywhere.
    private func checkRootType(_ definition: ObjectTypeDefinition) throws(SchemaError) {
        try DirectiveCheck.check(definition.directives, allowed: [], place: "a root type", declared: declaredDirectives)
        for field in definition.fields {
            try DirectiveCheck.check(
                field.directives, allowed: definition.name.value == "Subscription" ? ["aws_subscribe"] : [],
                place: "a custom \(definition.name.value) field", declared: declaredDirectives
            )
        }
    }

    /// A `Query` or `Mutation` field with its `@function` chain (empty when none), or its
    /// `@http` call with the arguments and input types Amplify generates for it.
    private func customOperation(
        _ field: FieldDefinition, parent: CustomOperation.Parent
    ) throws(SchemaError) -> (operation: CustomOperation, inputs: [InputType]) {
        let functions = try FunctionDirective.calls(field, typeName: parent.rawValue, eventResponse: eventResponseDefinition)
        let rootType = rootDefinitions.first { $0.name.value == parent.rawValue }
        var operation = CustomOperation(
            parent: parent, name: field.name.value, arguments: field.arguments.map(Self.typedName),
            returnType: print(ast: field.type), functions: functions,
            modeDirectives: ModelBuilder.modeDirectives(field.directives) ?? rootType.flatMap { ModelBuilder.modeDirectives($0.directives) })
        let httpDirectives = field.directives.filter { $0.name.value == "http" }
        guard let directive = httpDirectives.first else { return (operation, []) }
        let path = "\(parent.rawValue).\(field.name.value)"
        if httpDirectives.count > 1 {
            throw SchemaError(at: httpDirectives[1].loc, "@http is given twice on '\(path)'")
        }
        if !functions.isEmpty {
            throw SchemaError(at: directive.loc, "field '\(path)' has both @http and @function; it is resolved by one of them")
        }
        let http = try HTTPDirective(directive, field: field, parent: parent)
        for input in http.inputs {
            if let first = firstDeclarations[input.name] {
                throw SchemaError(
                    at: directive.loc,
                    "@http on '\(path)' generates input type '\(input.name)', which the schema declares\(Self.describe(first))")
            }
        }
        operation.http = http.call
        operation.arguments = http.arguments
        return (operation, http.inputs)
    }

    /// The schema's `EventInvocationResponse` object type, for `invocationType: Event` checks.
    private var eventResponseDefinition: ObjectTypeDefinition? {
        (nonModelDefinitions + modelDefinitions).first { $0.name.value == FunctionDirective.eventResponseTypeName }
    }

    /// The `@function` fields of models and non-model types, in the order declared.
    private func functionFields() throws(SchemaError) -> [FunctionField] {
        var fields: [FunctionField] = []
        for definition in objectDefinitions {
            for field in definition.fields where field.directives.contains(where: { $0.name.value == "function" }) {
                let functions = try FunctionDirective.calls(field, typeName: definition.name.value, eventResponse: eventResponseDefinition)
                fields.append(FunctionField(typeName: definition.name.value, fieldName: field.name.value, functions: functions))
            }
        }
        return fields
    }

    private static func typedName(_ value: InputValueDefinition) -> TypedName {
        TypedName(name: value.name.value, type: print(ast: value.type) + (value.defaultValue.map { " = " + print(ast: $0) } ?? ""))
    }

    /// A custom field may not take the name of a generated one (the AppSync schema would not build).
    private func checkCustomOperations(
        _ operations: [CustomOperation], rootDefinitions: [ObjectTypeDefinition], models: [ModelSchema]
    ) throws(SchemaError) {
        let generated = Set(models.flatMap { model in
            [model.operations.get, model.operations.list, model.operations.sync, model.operations.create, model.operations.update,
             model.operations.delete].compactMap { $0 } + model.indexes.compactMap(\.queryField)
        })
        for operation in operations where generated.contains(operation.name) {
            let location = rootDefinitions.first { $0.name.value == operation.parent.rawValue }?.fields.first { $0.name.value == operation.name }?.loc
            throw SchemaError(at: location, "\(operation.parent.rawValue) field '\(operation.name)' is also generated by a @model; rename it")
        }
    }

    /// A `Subscription` field with `@aws_subscribe(mutations: [...])`; fields without it are
    /// accepted and not served, like other custom root fields.
    private func customSubscription(_ field: FieldDefinition) throws(SchemaError) -> CustomSubscription? {
        guard let directive = field.directives.first(where: { $0.name.value == "aws_subscribe" }) else { return nil }
        guard let list = directive.arguments.first(where: { $0.name.value == "mutations" })?.value as? ListValue else {
            throw SchemaError(at: directive.loc, "@aws_subscribe on '\(field.name.value)' needs mutations: [\"createX\", ...]")
        }
        var mutations: [String] = []
        for value in list.values {
            guard let name = (value as? StringValue)?.value else {
                throw SchemaError(at: value.loc, "@aws_subscribe mutations are strings: the names of mutation fields")
            }
            mutations.append(name)
        }
        guard let returnType = field.type as? NamedType else {
            throw SchemaError(at: field.type.loc, "subscription '\(field.name.value)' must return a model type, not a list or non-null type")
        }
        return CustomSubscription(
            name: field.name.value,
            arguments: field.arguments.map { .init(name: $0.name.value, type: print(ast: $0.type)) },
            returnType: returnType.name.value, mutations: mutations)
    }

    /// Each custom subscription returns a model or non-model object type, and every mutation it
    /// lists returns that type (AppSync refuses the schema otherwise): a mutation a model
    /// generates returns the model, a custom one what it declares (`Message` or `Message!`).
    /// A subscription listing only generated mutations must list ones of its own model.
    /// Arguments filter on fields of the returned type.
    private func checkCustomSubscriptions(
        _ subscriptions: [CustomSubscription], rootDefinitions: [ObjectTypeDefinition], models: [ModelSchema],
        nonModels: [NonModelType], customMutations: [CustomOperation]
    ) throws(SchemaError) {
        let fields = rootDefinitions.filter { $0.name.value == "Subscription" }.flatMap(\.fields)
        let generatedFields = Set(models.flatMap { [$0.operations.onCreate, $0.operations.onUpdate, $0.operations.onDelete] }.compactMap { $0 })
        var generatedMutations: [String: String] = [:]
        for model in models {
            for case let name? in [model.operations.create, model.operations.update, model.operations.delete] {
                generatedMutations[name] = model.name
            }
        }
        for subscription in subscriptions {
            let location = fields.first { $0.name.value == subscription.name }?.name.loc
            guard !generatedFields.contains(subscription.name) else {
                throw SchemaError(at: location, "Subscription field '\(subscription.name)' is also generated by a @model; rename it")
            }
            let custom = subscription.mutations.compactMap { name in customMutations.first { $0.name == name } }
            let model = models.first { $0.name == subscription.returnType }
            guard !custom.isEmpty else {
                try checkModelSubscription(subscription, model: model, location: location)
                continue
            }
            let nonModel = nonModels.first { $0.name == subscription.returnType }
            guard model != nil || nonModel != nil else {
                throw SchemaError(
                    at: location,
                    "subscription '\(subscription.name)' returns '\(subscription.returnType)', which is not a @model or object type")
            }
            for mutation in subscription.mutations {
                let returned: String
                if let model = generatedMutations[mutation] {
                    returned = model
                } else if let operation = custom.first(where: { $0.name == mutation }) {
                    returned = operation.returnType.hasSuffix("!") ? String(operation.returnType.dropLast()) : operation.returnType
                } else {
                    throw SchemaError(
                        at: location, "subscription '\(subscription.name)' lists mutation '\(mutation)', which is not a Mutation field")
                }
                guard returned == subscription.returnType else {
                    throw SchemaError(
                        at: location,
                        "subscription '\(subscription.name)' lists mutation '\(mutation)', which returns '\(returned)', "
                            + "not '\(subscription.returnType)'; every listed mutation must return the subscription's type")
                }
            }
            for argument in subscription.arguments {
                let known = model.map { $0.field(named: argument.name) != nil || Self.metadataFieldNames.contains(argument.name) }
                    ?? nonModel?.fields.contains { $0.name == argument.name } ?? false
                guard known else {
                    throw SchemaError(
                        at: location,
                        "argument '\(argument.name)' of subscription '\(subscription.name)' filters on a field "
                            + "\(subscription.returnType) does not have")
                }
            }
        }
    }

    private static let metadataFieldNames: Set<String> = ["_version", "_deleted", "_lastChangedAt"]

    /// A subscription listing only mutations `@model` generates: all of its own model.
    private func checkModelSubscription(
        _ subscription: CustomSubscription, model: ModelSchema?, location: GraphQL.Location?
    ) throws(SchemaError) {
        guard let model else {
            throw SchemaError(at: location, "subscription '\(subscription.name)' returns '\(subscription.returnType)', which is not a @model type")
        }
        let generated = [model.operations.create, model.operations.update, model.operations.delete].compactMap { $0 }
        for mutation in subscription.mutations where !generated.contains(mutation) {
            throw SchemaError(
                at: location,
                "subscription '\(subscription.name)' lists mutation '\(mutation)', which is not a mutation of \(model.name) (\(generated.joined(separator: ", ")))")
        }
        for argument in subscription.arguments where model.field(named: argument.name) == nil && !Self.metadataFieldNames.contains(argument.name) {
            throw SchemaError(
                at: location,
                "argument '\(argument.name)' of subscription '\(subscription.name)' filters on a field \(model.name) does not have")
        }
    }

    // MARK: - Whole-schema checks

    /// Two models may not generate the same root field (an index `queryField` equal to another
    /// model's `listX`, a renamed mutation equal to a default one): the AppSync schema would not
    /// build.
    ///
    /// AppSync also needs a `Query` type, so some model must keep a query.
    private func checkRootFields(_ drafts: [ModelDraft]) throws(SchemaError) {
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
