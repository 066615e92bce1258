/// Generates the join model of each `@manyToMany(relationName:)` pair and turns both sides into
/// one-to-many relations to it.
///
/// For `Post.labels` / `Label.posts` with relation name `PostLabel`, the join model is
/// `PostLabel { id, postID, labelID, post, label }` with indexes `byPost` and `byLabel`; the
/// side declared first in the schema comes first.
struct ManyToManyBuilder {
    private(set) var drafts: [ModelDraft]
    let catalog: TypeCatalog

    init(drafts: [ModelDraft], catalog: TypeCatalog) {
        self.drafts = drafts
        self.catalog = catalog
    }

    /// Adds the join models after the user's models and sets the relation of every
    /// `@manyToMany` field.
    mutating func build() throws(SchemaError) {
        var groups: [(name: String, sides: [RelationDeclaration])] = []
        for draft in drafts {
            for declaration in draft.relations where declaration.form == .manyToMany {
                let name = declaration.relationName?.value ?? ""
                if let group = groups.firstIndex(where: { $0.name == name }) {
                    groups[group].sides.append(declaration)
                } else {
                    groups.append((name, [declaration]))
                }
            }
        }
        for group in groups {
            try addJoinModel(named: group.name, sides: group.sides)
        }
    }

    private mutating func addJoinModel(named name: String, sides: [RelationDeclaration]) throws(SchemaError) {
        let first = sides[0]
        guard sides.count == 2 else {
            throw SchemaError(
                at: (sides.count > 2 ? sides[2] : first).relationName?.location,
                "@manyToMany relationName '\(name)' must be used by exactly two fields, found \(sides.count)"
            )
        }
        let second = sides[1]
        guard first.model != second.model else {
            throw SchemaError(
                at: second.relationName?.location,
                "@manyToMany '\(name)' joins '\(first.model)' with itself, which Amplify does not support"
            )
        }
        guard first.target == second.model, second.target == first.model else {
            throw SchemaError(
                at: second.location,
                "@manyToMany '\(name)': '\(first.path)' refers to '\(first.target)' and '\(second.path)' to "
                    + "'\(second.target)'; each must refer to the other's model"
            )
        }
        let isTaken = drafts.contains { $0.name == name } || catalog.enums[name] != nil
            || catalog.nonModelNames.contains(name) || ScalarType(rawValue: name) != nil
        guard !isTaken else {
            throw SchemaError(at: first.relationName?.location, "@manyToMany relationName '\(name)' is already a type name")
        }
        guard let modelA = drafts.first(where: { $0.name == first.model })?.model,
            let modelB = drafts.first(where: { $0.name == second.model })?.model
        else { return }
        let keysA = Self.joinKeys(for: modelA)
        let keysB = Self.joinKeys(for: modelB)
        var fields = [Field(name: "id", type: .scalar(.id), isRequired: true, isGenerated: true)] + keysA + keysB
        for (side, keys) in [(modelA, keysA), (modelB, keysB)] {
            fields.append(Field(
                name: Naming.lowerFirst(side.name), type: .model(side.name), isRequired: true,
                relation: Relation(
                    kind: .belongsTo, relatedModel: side.name, localFields: keys.map(\.name),
                    relatedFields: side.primaryKey.fields
                ),
                isGenerated: true
            ))
        }
        let indexes = [(modelA, keysA), (modelB, keysB)].map { side, keys in
            Index(name: "by\(side.name)", partitionField: keys[0].name, sortKeyFields: keys.dropFirst().map(\.name))
        }
        let join = ModelSchema(
            name: name, fields: fields, primaryKey: PrimaryKey(), indexes: indexes,
            operations: .defaults(typeName: name, plural: Naming.plural(name)), isJoinModel: true
        )
        for (declaration, side, keys) in [(first, modelA, keysA), (second, modelB, keysB)] {
            let relation = Relation(
                kind: .manyToMany, relatedModel: name, localFields: side.primaryKey.fields,
                relatedFields: keys.map(\.name), indexName: "by\(side.name)"
            )
            setRelation(relation, joinModel: name, on: declaration)
        }
        drafts.append(ModelDraft(model: join, location: nil))
    }

    /// The join model's fields holding one side's key: `postID` for the partition field,
    /// `post<SortField>` for each sort key field.
    private static func joinKeys(for model: ModelSchema) -> [Field] {
        model.primaryKey.fields.enumerated().map { position, keyField in
            let name = position == 0 ? Naming.lowerFirst(model.name) + "ID" : Naming.camelCase([model.name, keyField])
            let type = model.field(named: keyField)?.type ?? .scalar(.id)
            return Field(name: name, type: type, isRequired: true, isGenerated: true)
        }
    }

    /// The `@manyToMany` field now lists join-model items.
    private mutating func setRelation(_ relation: Relation, joinModel: String, on declaration: RelationDeclaration) {
        guard let draft = drafts.firstIndex(where: { $0.name == declaration.model }),
            let field = drafts[draft].model.fields.firstIndex(where: { $0.name == declaration.field })
        else { return }
        drafts[draft].model.fields[field].type = .model(joinModel)
        drafts[draft].model.fields[field].relation = relation
    }
}
