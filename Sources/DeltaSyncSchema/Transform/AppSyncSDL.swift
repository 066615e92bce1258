extension AmplifySchema {
    /// The AppSync schema Amplify generates for this schema: model types, connections,
    /// filter/condition/mutation inputs, and the `Query` (get, list, sync, index queries),
    /// `Mutation` and `Subscription` types. With conflict detection on (DataStore's shape,
    /// ``ConflictDetection/version``) models carry the sync metadata, connections `startedAt`,
    /// inputs `_version` and filters `_deleted`; the plain shape has none of them.
    ///
    /// The text is deterministic and self-contained: it declares the AWS scalars and AppSync's
    /// directives, so `GraphQL.buildSchema(source:)` builds it as is.
    ///
    /// With `@auth` rules it also carries what Amplify's auth transform adds: the owner fields
    /// (already in the parsed models), the `owner` arguments of subscriptions, and the mode
    /// directives (``AuthModeDirectives``) for the API's `authModes`.
    ///
    /// ```swift
    /// let schema = try AmplifySchema.parse(source: "type Post @model { id: ID! str: String }")
    /// print(schema.appSyncSDL())   // type Post { id: ID! str: String createdAt: ... }
    /// ```
    public func appSyncSDL(authModes: APIAuthModes = APIAuthModes()) -> String {
        var printer = AppSyncPrinter(schema: self, directives: AuthModeDirectives(modes: authModes))
        return printer.print()
    }

    /// The modes the schema's `@auth` rules and `@aws_*` directives name, in first-use order:
    /// what an API serving it must accept.
    public var authModesUsed: [AuthMode] {
        var used: [AuthMode] = []
        for model in models {
            let ruled = ((model.authRules ?? []) + model.fields.flatMap({ $0.authRules ?? [] })).map(\.provider.mode)
            let written = (model.modeDirectives ?? []) + model.fields.flatMap { $0.modeDirectives ?? [] }
            for mode in ruled + written where !used.contains(mode) {
                used.append(mode)
            }
        }
        return used
    }
}

/// Prints the AppSync schema section by section: declarations, object types, shared inputs,
/// per-model inputs, then the root types with the inputs only they use.
struct AppSyncPrinter {
    let schema: AmplifySchema
    let directives: AuthModeDirectives
    var writer = SDLWriter()

    /// The sync metadata every model type carries (`_lastChangedAt` holds epoch milliseconds).
    static let metadataFields = ["_version: Int!", "_deleted: Boolean", "_lastChangedAt: AWSTimestamp!"]

    /// AppSync's directives, declared so the text builds outside AppSync.
    static let directiveDeclarations = [
        "directive @aws_subscribe(mutations: [String]) on FIELD_DEFINITION",
        "directive @aws_api_key on FIELD_DEFINITION | OBJECT",
        "directive @aws_iam on FIELD_DEFINITION | OBJECT",
        "directive @aws_cognito_user_pools(cognito_groups: [String]) on FIELD_DEFINITION | OBJECT",
        "directive @aws_oidc on FIELD_DEFINITION | OBJECT",
        "directive @aws_lambda on FIELD_DEFINITION | OBJECT",
    ]

    mutating func print() -> String {
        writer.lines(ScalarType.allCases.filter(\.isAWSScalar).map { "scalar \($0.rawValue)" })
        writer.lines(Self.directiveDeclarations)
        for model in schema.models {
            writer.block(header("type \(model.name)", directives.typeModes(model)), modelTypeFields(model))
        }
        for enumType in schema.enums {
            writer.block("enum \(enumType.name)", enumType.values)
        }
        for nonModel in schema.nonModels {
            writer.block(header("type \(nonModel.name)", directives.nonModelModes(nonModel.name, in: schema)), nonModel.fields.map {
                "\($0.name): \($0.typeReference(named: $0.type.graphQLName, isRequired: $0.isRequired))"
            })
        }
        for model in schema.models {
            writer.block(header("type \(model.connectionTypeName)", directives.connectionModes(model)), [
                "items: [\(model.name)]!", "nextToken: String",
            ] + (schema.isVersioned ? ["startedAt: AWSTimestamp"] : []))
        }
        printSharedInputs()
        for model in schema.models {
            printModelInputs(model)
        }
        for key in KeyShape.compositeKeys(in: schema) {
            printCompositeKeyInputs(key)
        }
        for nonModel in schema.nonModels {
            printNonModelInput(nonModel)
        }
        for input in schema.inputTypes {
            writer.block("input \(input.name)", input.fields.map { "\($0.name): \($0.type)" })
        }
        printQuery()
        printMutation()
        printSubscription()
        return writer.text
    }

    // MARK: - Model types

    /// `type Post @aws_api_key @aws_iam`, or the bare header when no mode is written.
    func header(_ header: String, _ modes: [AuthMode]?) -> String {
        modes == nil ? header : "\(header) \(AuthModeDirectives.text(modes))"
    }

    private func modelTypeFields(_ model: ModelSchema) -> [String] {
        model.fields.map { field in
            var sdl = field.relation.map { relationField(field, $0) } ?? SDLField(
                name: field.name, type: field.typeReference(named: field.type.graphQLName, isRequired: field.isRequired)
            )
            if let modes = directives.fieldModes(field) { sdl.directive = AuthModeDirectives.text(modes) }
            return sdl.text
        } + (schema.isVersioned ? Self.metadataFields : [])
    }

    /// `_deleted` in filter, condition and subscription filter inputs of a versioned API.
    var deletedFilter: [String] { schema.isVersioned ? ["_deleted: ModelBooleanInput"] : [] }

    /// `_version` in the mutation inputs of a versioned API.
    var versionInput: [String] { schema.isVersioned ? ["_version: Int"] : [] }

    /// A connection field takes the list arguments (and a sort key condition when the lookup
    /// key has sort fields left over); a single related item is a plain field.
    private func relationField(_ field: Field, _ relation: Relation) -> SDLField {
        guard relation.isConnection, let related = schema.model(named: relation.relatedModel) else {
            return SDLField(name: field.name, type: typeReference(relation.relatedModel, isRequired: field.isRequired))
        }
        var arguments: [(name: String, type: String)] = []
        let key = KeyShape(model: related, indexName: relation.indexName)
        if let sortKey = key.sortKeyArgument(boundFields: relation.relatedFields.count) {
            arguments.append(sortKey)
        }
        arguments += [
            ("filter", related.filterInputTypeName), ("sortDirection", "ModelSortDirection"),
            ("limit", "Int"), ("nextToken", "String"),
        ]
        return SDLField(
            name: field.name, arguments: arguments,
            type: typeReference(related.connectionTypeName, isRequired: field.isRequired)
        )
    }
}
