/// Resolves relation directives into ``Relation`` values, adding the implicit foreign keys and
/// indexes Amplify generates when a relation names no `fields`.
///
/// Every form reduces to one of three lookups:
/// - through an index of the related model (`@hasMany(indexName:)`, v1 `keyName`),
/// - through the related model's primary key, from fields of this model (`fields:`),
/// - through a generated foreign key, on the child (`@hasMany`) or on this model (`@hasOne`,
///   `@belongsTo`).
struct RelationResolver {
    private(set) var drafts: [ModelDraft]
    private let positions: [String: Int]

    init(drafts: [ModelDraft]) {
        self.drafts = drafts
        self.positions = Dictionary(uniqueKeysWithValues: drafts.enumerated().map { ($1.name, $0) })
    }

    mutating func resolve() throws(SchemaError) {
        for position in drafts.indices {
            for declaration in drafts[position].relations {
                guard let relation = try resolve(declaration),
                    let field = drafts[position].model.fields.firstIndex(where: { $0.name == declaration.field })
                else { continue }
                drafts[position].model.fields[field].relation = relation
            }
        }
    }

    private func model(_ name: String) -> ModelSchema { drafts[positions[name]!].model }

    /// The relation a declaration describes; `nil` for `@manyToMany`, which needs its join model
    /// (see ``ManyToManyBuilder``).
    private mutating func resolve(_ declaration: RelationDeclaration) throws(SchemaError) -> Relation? {
        switch declaration.form {
        case .hasMany:
            return try oneToMany(declaration)
        case .hasOne:
            if let references = declaration.references {
                return try referencingChildren(.hasOne, declaration, references: references)
            }
            if let fields = declaration.fields {
                return try throughPrimaryKey(.hasOne, declaration, fields: fields)
            }
            return ownForeignKey(.hasOne, declaration)
        case .belongsTo:
            if let fields = declaration.fields {
                return try throughPrimaryKey(.belongsTo, declaration, fields: fields)
            }
            return belongsToWithoutFields(declaration, counterpart: implicitHasMany(backTo: declaration))
        case .connection:
            return try connection(declaration)
        case .manyToMany:
            return nil
        }
    }

    private mutating func oneToMany(_ declaration: RelationDeclaration) throws(SchemaError) -> Relation {
        if let references = declaration.references {
            return try referencingChildren(.hasMany, declaration, references: references)
        }
        if let indexName = declaration.indexName {
            return try throughIndex(.hasMany, declaration, indexName: indexName)
        }
        if let fields = declaration.fields {
            return try throughPrimaryKey(.hasMany, declaration, fields: fields)
        }
        return childForeignKey(declaration)
    }

    /// v1 `@connection`, read as the nearest v2 directive: a list is a `@hasMany`; a single
    /// field is a `@belongsTo` (by `fields`, or by a foreign key shared with a named list
    /// connection on the other side), or a `@hasOne` through an index with `keyName`.
    private mutating func connection(_ declaration: RelationDeclaration) throws(SchemaError) -> Relation {
        if declaration.isList {
            return try oneToMany(declaration)
        }
        if let indexName = declaration.indexName {
            return try throughIndex(.hasOne, declaration, indexName: indexName)
        }
        if let fields = declaration.fields {
            return try throughPrimaryKey(.belongsTo, declaration, fields: fields)
        }
        var counterpart: RelationDeclaration?
        if let name = declaration.relationName {
            counterpart = drafts[positions[declaration.target]!].relations.first {
                $0.form == .connection && $0.relationName?.value == name.value && $0.target == declaration.model
                    && $0.path != declaration.path && $0.isImplicitHasMany
            }
        }
        return belongsToWithoutFields(declaration, counterpart: counterpart)
    }

    // MARK: - Lookups

    /// Related items found through an index of the related model; this model's `fields`
    /// (its primary key by default) match the index's leading key fields.
    private func throughIndex(
        _ kind: Relation.Kind, _ declaration: RelationDeclaration, indexName: StringArgument
    ) throws(SchemaError) -> Relation {
        let related = model(declaration.target)
        guard let index = related.index(named: indexName.value) else {
            throw SchemaError(
                at: indexName.location,
                "model '\(related.name)' has no index '\(indexName.value)' (used by '\(declaration.path)')"
            )
        }
        let local = try localFields(declaration)
        let keyFields = [index.partitionField] + index.sortKeyFields
        guard local.count <= keyFields.count else {
            throw SchemaError(
                at: declaration.fields?.first?.location ?? declaration.location,
                "'\(declaration.path)' names \(local.count) fields but index '\(index.name)' of '\(related.name)' has \(keyFields.count) key fields"
            )
        }
        let relatedFields = Array(keyFields.prefix(local.count))
        try checkTypes(declaration, local: local, related: relatedFields)
        return Relation(
            kind: kind, relatedModel: related.name, localFields: local, relatedFields: relatedFields, indexName: index.name
        )
    }

    /// Related items whose primary key equals this model's `fields`.
    private func throughPrimaryKey(
        _ kind: Relation.Kind, _ declaration: RelationDeclaration, fields: [StringArgument]
    ) throws(SchemaError) -> Relation {
        let related = model(declaration.target)
        let local = try localFields(declaration)
        let keyFields = related.primaryKey.fields
        guard !local.isEmpty, local.count <= keyFields.count else {
            throw SchemaError(
                at: fields.first?.location ?? declaration.location,
                "'\(declaration.path)' names \(local.count) fields but the primary key of '\(related.name)' has \(keyFields.count)"
            )
        }
        let relatedFields = Array(keyFields.prefix(local.count))
        try checkTypes(declaration, local: local, related: relatedFields)
        return Relation(kind: kind, relatedModel: related.name, localFields: local, relatedFields: relatedFields)
    }

    /// Gen 2's `@hasMany(references:)` / `@hasOne(references:)`: the related model's named
    /// fields hold this model's primary key, one per key field, and an index
    /// `gsi-<Parent>.<field>` over them finds the related items.
    private mutating func referencingChildren(
        _ kind: Relation.Kind, _ declaration: RelationDeclaration, references: [StringArgument]
    ) throws(SchemaError) -> Relation {
        let parent = model(declaration.model)
        let child = model(declaration.target)
        for reference in references where child.field(named: reference.value) == nil {
            throw SchemaError(
                at: reference.location,
                "field '\(reference.value)' named by the references of '\(declaration.path)' does not exist on model '\(child.name)'; Gen 2 relations need the foreign key declared, as in \(reference.value): ID"
            )
        }
        guard references.count == parent.primaryKey.fields.count else {
            throw SchemaError(
                at: references.first?.location ?? declaration.location,
                "'\(declaration.path)' names \(references.count) references but the primary key of '\(parent.name)' has \(parent.primaryKey.fields.count) fields"
            )
        }
        let names = references.map(\.value)
        for (keyName, reference) in zip(parent.primaryKey.fields, references) {
            guard let keyField = parent.field(named: keyName), let referenceField = child.field(named: reference.value) else { continue }
            guard !referenceField.isList, referenceField.type.keyKind == keyField.type.keyKind else {
                throw SchemaError(
                    at: reference.location,
                    "'\(declaration.path)' matches '\(child.name).\(reference.value)' (\(referenceField.type.graphQLName)) with '\(parent.name).\(keyName)' (\(keyField.type.graphQLName)): the types differ"
                )
            }
        }
        let indexName = Naming.implicitIndexName(parent: parent.name, field: declaration.field)
        drafts[positions[child.name]!].ensureIndex(Index(name: indexName, partitionField: names[0], sortKeyFields: Array(names.dropFirst())))
        return Relation(
            kind: kind, relatedModel: child.name, localFields: parent.primaryKey.fields, relatedFields: names, indexName: indexName
        )
    }

    /// `@hasMany` without fields: the child gets `<parent><field>Id` (plus one field per sort key
    /// of the parent's key) and an index `gsi-<Parent>.<field>` over them.
    private mutating func childForeignKey(_ declaration: RelationDeclaration) -> Relation {
        let parent = model(declaration.model)
        let keys = Self.foreignKeys(prefix: parent.name, field: declaration.field, keyOf: parent)
        let indexName = Naming.implicitIndexName(parent: parent.name, field: declaration.field)
        addForeignKeys(keys, indexName: indexName, to: declaration.target)
        return Relation(
            kind: .hasMany, relatedModel: declaration.target, localFields: parent.primaryKey.fields,
            relatedFields: keys.map(\.name), indexName: indexName
        )
    }

    /// `@belongsTo` without fields shares the foreign key of the parent's implicit `@hasMany`
    /// back to this model; with no such counterpart it gets its own key.
    private mutating func belongsToWithoutFields(
        _ declaration: RelationDeclaration, counterpart: RelationDeclaration?
    ) -> Relation {
        guard let counterpart else { return ownForeignKey(.belongsTo, declaration) }
        let parent = model(declaration.target)
        let keys = Self.foreignKeys(prefix: parent.name, field: counterpart.field, keyOf: parent)
        addForeignKeys(keys, indexName: Naming.implicitIndexName(parent: parent.name, field: counterpart.field), to: declaration.model)
        return Relation(
            kind: .belongsTo, relatedModel: parent.name, localFields: keys.map(\.name),
            relatedFields: parent.primaryKey.fields
        )
    }

    /// A foreign key on this model, `<type><field>Id`, pointing at the related primary key.
    private mutating func ownForeignKey(_ kind: Relation.Kind, _ declaration: RelationDeclaration) -> Relation {
        let related = model(declaration.target)
        let keys = Self.foreignKeys(prefix: declaration.model, field: declaration.field, keyOf: related)
        let position = positions[declaration.model]!
        for key in keys {
            drafts[position].ensureField(key)
        }
        return Relation(
            kind: kind, relatedModel: related.name, localFields: keys.map(\.name), relatedFields: related.primaryKey.fields
        )
    }

    /// The implicit `@hasMany` (or v1 list `@connection`) of the related model pointing back at
    /// this model, if any.
    private func implicitHasMany(backTo declaration: RelationDeclaration) -> RelationDeclaration? {
        drafts[positions[declaration.target]!].relations.first {
            $0.isImplicitHasMany && $0.target == declaration.model
        }
    }

    // MARK: - Helpers

    /// Generated nullable foreign-key fields referencing `keyOf`'s primary key: the partition
    /// field as `<prefix><field>Id`, each sort key field as `<prefix><field><SortField>`.
    static func foreignKeys(prefix: String, field: String, keyOf model: ModelSchema) -> [Field] {
        model.primaryKey.fields.enumerated().map { position, keyField in
            let name = Naming.camelCase([prefix, field, position == 0 ? "id" : keyField])
            let type = model.field(named: keyField)?.type ?? .scalar(.id)
            return Field(name: name, type: type, isGenerated: true)
        }
    }

    private mutating func addForeignKeys(_ keys: [Field], indexName: String, to modelName: String) {
        let position = positions[modelName]!
        for key in keys {
            drafts[position].ensureField(key)
        }
        drafts[position].ensureIndex(Index(
            name: indexName, partitionField: keys[0].name, sortKeyFields: keys.dropFirst().map(\.name)
        ))
    }

    /// The declaration's `fields` (or this model's primary key), each checked to exist.
    private func localFields(_ declaration: RelationDeclaration) throws(SchemaError) -> [String] {
        let owner = model(declaration.model)
        guard let fields = declaration.fields else { return owner.primaryKey.fields }
        for field in fields where owner.field(named: field.value) == nil {
            throw SchemaError(
                at: field.location,
                "field '\(field.value)' named by '\(declaration.path)' does not exist on model '\(owner.name)'"
            )
        }
        return fields.map(\.value)
    }

    /// Matched fields must hold the same kind of value (text, integer, number, boolean), or the
    /// lookup would never match.
    private func checkTypes(_ declaration: RelationDeclaration, local: [String], related: [String]) throws(SchemaError) {
        let owner = model(declaration.model)
        let target = model(declaration.target)
        for (position, (localName, relatedName)) in zip(local, related).enumerated() {
            guard let localField = owner.field(named: localName), let relatedField = target.field(named: relatedName) else {
                continue
            }
            guard !localField.isList, localField.type.isKeyType else {
                throw SchemaError(
                    at: declaration.fields?[position].location ?? declaration.location,
                    "field '\(owner.name).\(localName)' used by '\(declaration.path)' must be a scalar or enum"
                )
            }
            guard localField.type.keyKind == relatedField.type.keyKind else {
                let local = "'\(owner.name).\(localName)' (\(localField.type.graphQLName))"
                let related = "'\(target.name).\(relatedName)' (\(relatedField.type.graphQLName))"
                throw SchemaError(
                    at: declaration.fields?[position].location ?? declaration.location,
                    "'\(declaration.path)' matches \(local) with \(related): the types differ"
                )
            }
        }
    }
}
