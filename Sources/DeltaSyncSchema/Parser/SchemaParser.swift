import GraphQL

/// Turns parsed SDL documents into an ``AmplifySchema``.
///
/// Works in passes because directives refer across types: collect every type name, build enums
/// and non-model types, build each model's fields and keys, then resolve relations (which add
/// foreign keys and indexes to other models), generate `@manyToMany` join models, and finally
/// add timestamps so they follow every other field.
struct SchemaParser {
    let documents: [Document]
    private(set) var firstDeclarations: [String: GraphQL.Location?] = [:]
    private(set) var enumDefinitions: [EnumTypeDefinition] = []
    private(set) var nonModelDefinitions: [ObjectTypeDefinition] = []
    private(set) var modelDefinitions: [ObjectTypeDefinition] = []
    private(set) var rootDefinitions: [ObjectTypeDefinition] = []
    /// Model and non-model object types, in the order declared.
    private(set) var objectDefinitions: [ObjectTypeDefinition] = []
    private(set) var inputDefinitions: [InputObjectTypeDefinition] = []
    private(set) var declaredDirectives: Set<String> = []

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
}
