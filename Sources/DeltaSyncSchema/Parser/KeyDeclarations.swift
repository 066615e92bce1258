import GraphQL

/// The keys a model declares: `@primaryKey` / `@index` on fields (v2) or `@key` on the type
/// (v1), collected while fields are read and checked once every field is known.
struct KeyDeclarations {
    /// A key as written: its partition and sort key field names, with their places.
    struct Declaration {
        var name: String?
        var partition: StringArgument
        var sortKeyFields: [StringArgument]
        var queryField: String?
        var location: GraphQL.Location?
    }

    let typeName: String
    private var primaryKey: Declaration?
    private var indexes: [Declaration] = []

    init(typeName: String) {
        self.typeName = typeName
    }

    // MARK: - Collecting

    mutating func addPrimaryKey(_ directive: Directive, field: FieldDefinition) throws(SchemaError) {
        let arguments = try DirectiveArguments(directive, accepting: ["sortKeyFields"])
        try setPrimaryKey(Declaration(
            partition: StringArgument(value: field.name.value, location: field.name.loc),
            sortKeyFields: try arguments.stringList("sortKeyFields") ?? [],
            location: directive.loc
        ))
    }

    /// `@index(name:sortKeyFields:queryField:)`. Without a name the index is called
    /// `by<Field>[And<SortKey>...]`, which is unique per model since fields are.
    mutating func addIndex(_ directive: Directive, field: FieldDefinition) throws(SchemaError) {
        let arguments = try DirectiveArguments(directive, accepting: ["name", "sortKeyFields", "queryField"])
        let sortKeyFields = try arguments.stringList("sortKeyFields") ?? []
        let name = try arguments.string("name")?.value
            ?? "by" + ([field.name.value] + sortKeyFields.map(\.value)).map(Naming.upperFirst).joined(separator: "And")
        try addIndex(Declaration(
            name: name,
            partition: StringArgument(value: field.name.value, location: field.name.loc),
            sortKeyFields: sortKeyFields,
            queryField: try arguments.string("queryField")?.value,
            location: directive.loc
        ))
    }

    /// v1 `@key(fields:)` is the primary key; `@key(name:fields:queryField:)` an index.
    mutating func addKey(_ directive: Directive) throws(SchemaError) {
        let arguments = try DirectiveArguments(directive, accepting: ["name", "fields", "queryField"])
        guard let fields = try arguments.stringList("fields"), let partition = fields.first else {
            throw SchemaError(at: arguments.location(of: "fields"), "@key on '\(typeName)' needs at least one field in 'fields'")
        }
        let declaration = Declaration(
            name: try arguments.string("name")?.value,
            partition: partition,
            sortKeyFields: Array(fields.dropFirst()),
            queryField: try arguments.string("queryField")?.value,
            location: directive.loc
        )
        if declaration.name == nil {
            if declaration.queryField != nil {
                throw SchemaError(at: arguments.location(of: "queryField"), "@key on '\(typeName)' needs a 'name' to have a 'queryField'")
            }
            try setPrimaryKey(declaration)
        } else {
            try addIndex(declaration)
        }
    }

    private mutating func setPrimaryKey(_ declaration: Declaration) throws(SchemaError) {
        guard primaryKey == nil else {
            throw SchemaError(at: declaration.location, "model '\(typeName)' declares more than one primary key")
        }
        primaryKey = declaration
    }

    private mutating func addIndex(_ declaration: Declaration) throws(SchemaError) {
        if indexes.contains(where: { $0.name == declaration.name }) {
            throw SchemaError(at: declaration.location, "model '\(typeName)' declares index '\(declaration.name ?? "")' twice")
        }
        indexes.append(declaration)
    }

    // MARK: - Applying

    /// Sets the model's primary key (adding `id: ID!` when the model declares neither a key nor
    /// an `id` field) and its indexes, after checking every key field.
    func apply(to draft: inout ModelDraft) throws(SchemaError) {
        if let primaryKey {
            let partition = try keyField(primaryKey.partition, in: draft)
            guard partition.isRequired else {
                throw SchemaError(
                    at: primaryKey.partition.location,
                    "primary key field '\(typeName).\(partition.name)' must be non-null"
                )
            }
            for sortKey in primaryKey.sortKeyFields {
                let field = try keyField(sortKey, in: draft)
                guard field.isRequired else {
                    throw SchemaError(at: sortKey.location, "primary key sort field '\(typeName).\(field.name)' must be non-null")
                }
            }
            draft.model.primaryKey = PrimaryKey(
                partitionField: partition.name, sortKeyFields: primaryKey.sortKeyFields.map(\.value)
            )
        } else if let id = draft.model.field(named: "id") {
            guard id.isRequired, !id.isList, id.type.isKeyType else {
                throw SchemaError(
                    at: draft.location(ofField: "id"),
                    "model '\(typeName)' has no usable primary key: 'id' must be a non-null scalar or enum, or mark a key with @primaryKey"
                )
            }
        } else {
            let id = Field(name: "id", type: .scalar(.id), isRequired: true, isGenerated: true)
            draft.model.fields.insert(id, at: 0)
        }
        for declaration in indexes {
            let partition = try keyField(declaration.partition, in: draft)
            for sortKey in declaration.sortKeyFields {
                _ = try keyField(sortKey, in: draft)
            }
            let name = declaration.name ?? ""
            draft.model.indexes.append(Index(
                name: name, partitionField: partition.name,
                sortKeyFields: declaration.sortKeyFields.map(\.value), queryField: declaration.queryField
            ))
            draft.indexLocations[name] = declaration.location
        }
    }

    /// The field a key names, which must exist and hold a scalar or enum.
    private func keyField(_ name: StringArgument, in draft: ModelDraft) throws(SchemaError) -> Field {
        guard let field = draft.model.field(named: name.value) else {
            throw SchemaError(at: name.location, "key field '\(name.value)' does not exist on model '\(typeName)'")
        }
        guard !field.isList, field.type.isKeyType else {
            let actual = field.isList ? "a list" : "'\(field.type.graphQLName)'"
            throw SchemaError(
                at: name.location, "key field '\(typeName).\(field.name)' must be a string, number or enum, not \(actual)"
            )
        }
        return field
    }
}

extension FieldType {
    /// Whether a key (primary or index) may use a field of this type: DynamoDB keys are strings
    /// or numbers, so scalars (but booleans and JSON) and enums.
    var isKeyType: Bool {
        switch self {
        case .scalar(let scalar): return scalar != .awsJSON && scalar != .boolean
        case .enumType: return true
        case .nonModel, .model: return false
        }
    }
}
