import GraphQL

/// A relation directive as written on a model field, kept until every model's keys are known.
struct RelationDeclaration {
    /// The directive used: v2 ones, or v1 `@connection` whose meaning depends on its arguments.
    enum Form: String {
        case hasMany, hasOne, belongsTo, manyToMany, connection
    }

    var form: Form
    /// The model holding the field.
    var model: String
    var field: String
    /// The related model (the field's type).
    var target: String
    var isList: Bool
    var location: GraphQL.Location?
    /// `indexName` (v2) or `keyName` (v1).
    var indexName: StringArgument?
    var fields: [StringArgument]?
    /// `relationName` of `@manyToMany`, or `name` of v1 `@connection`.
    var relationName: StringArgument?
    /// Gen 2's `references:` of `@hasMany`/`@hasOne`: the related model's fields that hold this
    /// model's primary key. (A `@belongsTo`'s references are its `fields`: this model's fields
    /// holding the related key.)
    var references: [StringArgument]?

    /// The arguments each form accepts; `limit` sets a page size Amplify bakes into resolvers,
    /// which the local server leaves to the client.
    private static let acceptedArguments: [Form: Set<String>] = [
        .hasMany: ["indexName", "fields", "limit", "references"],
        .hasOne: ["fields", "references"],
        .belongsTo: ["fields", "references"],
        .manyToMany: ["relationName", "limit"],
        .connection: ["name", "keyName", "fields", "limit"],
    ]

    /// - Throws: ``SchemaError`` for a relation to a type that is not a model, a list/single
    ///   mismatch, or bad arguments.
    init(_ directive: Directive, model: String, field: Field, node: FieldDefinition) throws(SchemaError) {
        guard let form = Form(rawValue: directive.name.value) else {
            throw SchemaError(at: directive.loc, "unknown relation directive @\(directive.name.value)")
        }
        let path = "\(model).\(field.name)"
        let arguments = try DirectiveArguments(directive, accepting: Self.acceptedArguments[form] ?? [])
        guard case .model(let target) = field.type else {
            throw SchemaError(
                at: node.type.loc,
                "@\(form.rawValue) on '\(path)' must refer to a @model type; '\(field.type.graphQLName)' is not one"
            )
        }
        switch form {
        case .hasMany, .manyToMany:
            guard field.isList else {
                throw SchemaError(at: node.type.loc, "@\(form.rawValue) field '\(path)' must be a list, as in [\(target)]")
            }
        case .hasOne, .belongsTo:
            guard !field.isList else {
                throw SchemaError(at: node.type.loc, "@\(form.rawValue) field '\(path)' must not be a list; use @hasMany")
            }
        case .connection:
            break
        }
        self.form = form
        self.model = model
        self.field = field.name
        self.target = target
        self.isList = field.isList
        self.location = directive.loc
        self.indexName = try arguments.string(form == .connection ? "keyName" : "indexName")
        self.fields = try arguments.stringList("fields")
        let references = try arguments.stringList("references")
        if let references {
            guard fields == nil, indexName == nil else {
                throw SchemaError(
                    at: directive.loc,
                    "@\(form.rawValue) on '\(path)' names both 'references' (Gen 2) and '\(fields != nil ? "fields" : "indexName")' (Gen 1); keep one")
            }
            guard !references.isEmpty else {
                throw SchemaError(at: directive.loc, "'references' of @\(form.rawValue) on '\(path)' names no field")
            }
            if form == .belongsTo { self.fields = references } else { self.references = references }
        }
        self.relationName = try arguments.string(form == .connection ? "name" : "relationName")
        if form == .manyToMany, relationName == nil {
            throw SchemaError(at: directive.loc, "@manyToMany on '\(path)' needs a 'relationName'")
        }
        if form == .connection, indexName != nil, fields == nil {
            throw SchemaError(at: directive.loc, "@connection on '\(path)' needs 'fields' with 'keyName'")
        }
    }

    var path: String { "\(model).\(field)" }

    /// A one-to-many without `fields` or an index: the child gets a generated foreign key that
    /// a `@belongsTo` on the child without `fields` shares.
    var isImplicitHasMany: Bool {
        (form == .hasMany || (form == .connection && isList)) && indexName == nil && fields == nil && references == nil
    }
}
