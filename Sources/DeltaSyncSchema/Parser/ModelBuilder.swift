import DeltaSyncCore
import GraphQL

/// Builds one `@model` type: its operations, fields, defaults and keys. Relations are only
/// recorded here; ``RelationResolver`` resolves them once every model's key is known.
struct ModelBuilder {
    let definition: ObjectTypeDefinition
    let catalog: TypeCatalog

    private var typeName: String { definition.name.value }

    /// Fields every synced item carries; a model may not declare them.
    private static let reservedFieldNames: Set<String> = ["_version", "_deleted", "_lastChangedAt", "_ttl"]

    func build() throws(SchemaError) -> ModelDraft {
        try DirectiveCheck.check(
            definition.directives, allowed: KnownDirectives.modelType, place: "a @model type",
            declared: catalog.declaredDirectives
        )
        let modelDirectives = definition.directives.filter { $0.name.value == "model" }
        if modelDirectives.count > 1 {
            throw SchemaError(at: modelDirectives[1].loc, "@model is given twice on '\(typeName)'")
        }
        let settings = try ModelDirective(modelDirectives[0], typeName: typeName)
        let model = ModelSchema(
            name: typeName, fields: [], primaryKey: PrimaryKey(),
            operations: settings.operations, timestamps: settings.timestamps
        )
        var draft = ModelDraft(model: model, location: definition.name.loc)
        var keys = KeyDeclarations(typeName: typeName)
        for node in definition.fields {
            try addField(node, to: &draft, keys: &keys)
        }
        for directive in definition.directives where directive.name.value == "key" {
            try keys.addKey(directive)
        }
        let authDirectives = definition.directives.filter { $0.name.value == "auth" }
        if authDirectives.count > 1 {
            throw SchemaError(at: authDirectives[1].loc, "@auth is given twice on '\(typeName)'")
        }
        if let auth = authDirectives.first {
            draft.model.authRules = try AuthDirective.rules(auth, place: typeName)
        }
        draft.model.modeDirectives = Self.modeDirectives(definition.directives)
        try keys.apply(to: &draft)
        return draft
    }

    private func addField(_ node: FieldDefinition, to draft: inout ModelDraft, keys: inout KeyDeclarations) throws(SchemaError) {
        let path = "\(typeName).\(node.name.value)"
        guard draft.model.field(named: node.name.value) == nil else {
            throw SchemaError(at: node.name.loc, "duplicate field '\(path)'")
        }
        guard !Self.reservedFieldNames.contains(node.name.value) else {
            throw SchemaError(at: node.name.loc, "field '\(path)' uses a name reserved for sync metadata")
        }
        try DirectiveCheck.check(
            node.directives, allowed: KnownDirectives.modelField, place: "a field",
            declared: catalog.declaredDirectives
        )
        var field = try catalog.field(node, path: path)
        var relation: RelationDeclaration?
        for directive in node.directives {
            let name = directive.name.value
            switch name {
            case "primaryKey":
                try keys.addPrimaryKey(directive, field: node)
            case "index":
                try keys.addIndex(directive, field: node)
            case "auth":
                if field.authRules != nil {
                    throw SchemaError(at: directive.loc, "@auth is given twice on '\(path)'")
                }
                field.authRules = try AuthDirective.rules(directive, place: path)
            case "default":
                field.defaultValue = try DefaultValue.parse(directive, field: field, path: path, catalog: catalog)
            case _ where KnownDirectives.relation.contains(name):
                if relation != nil {
                    throw SchemaError(at: directive.loc, "field '\(path)' has more than one relation directive")
                }
                relation = try RelationDeclaration(directive, model: typeName, field: field, node: node)
            default:
                break
            }
        }
        field.modeDirectives = Self.modeDirectives(node.directives)
        if relation == nil, case .model(let target) = field.type {
            throw SchemaError(
                at: node.type.loc,
                "field '\(path)' refers to @model type '\(target)' without a relation directive "
                    + "(@hasMany, @hasOne, @belongsTo or @manyToMany)"
            )
        }
        draft.model.fields.append(field)
        draft.fieldLocations[field.name] = node.name.loc
        if let relation {
            draft.relations.append(relation)
        }
    }
}

extension ModelBuilder {
    /// The AppSync mode directives among `directives` (`@aws_api_key`, `@aws_auth`, ...), in the
    /// order written; `nil` when there are none.
    static func modeDirectives(_ directives: [Directive]) -> [AuthMode]? {
        var modes: [AuthMode] = []
        for directive in directives {
            if let mode = AuthMode(directiveName: directive.name.value), !modes.contains(mode) { modes.append(mode) }
        }
        return modes.isEmpty ? nil : modes
    }
}

/// `@default(value:)`: the string Amplify takes, converted to the field's type so storage and
/// resolvers get a typed value.
enum DefaultValue {
    static func parse(_ directive: Directive, field: Field, path: String, catalog: TypeCatalog) throws(SchemaError) -> JSONValue {
        let arguments = try DirectiveArguments(directive, accepting: ["value"])
        guard let argument = try arguments.string("value") else {
            throw SchemaError(at: directive.loc, "@default on '\(path)' needs a string 'value'")
        }
        if field.isList {
            throw SchemaError(at: directive.loc, "@default is not allowed on list field '\(path)'")
        }
        let text = argument.value
        let converted: JSONValue?
        switch field.type {
        case .scalar(.int), .scalar(.awsTimestamp):
            converted = Int(text).map(JSONValue.int)
        case .scalar(.float):
            converted = Double(text).map(JSONValue.double)
        case .scalar(.boolean):
            converted = ["true": true, "false": false][text].map(JSONValue.bool)
        case .scalar(.awsJSON):
            converted = (try? JSONValue(parsing: text)) == nil ? nil : .string(text)
        case .scalar:
            converted = .string(text)
        case .enumType(let name):
            converted = catalog.enums[name]?.values.contains(text) == true ? .string(text) : nil
        case .nonModel, .model:
            throw SchemaError(at: directive.loc, "@default is not allowed on '\(path)' of type '\(field.type.graphQLName)'")
        }
        guard let converted else {
            throw SchemaError(
                at: argument.location,
                "default value '\(text)' of '\(path)' is not a valid \(field.type.graphQLName)"
            )
        }
        return converted
    }
}
