import GraphQL

/// A model while the parser still works on it: the ``Model`` plus where things were written
/// (for errors) and the relation directives waiting for every model's keys to be known.
struct ModelDraft {
    var model: ModelSchema
    /// The type's name in the source; `nil` for generated join models.
    var location: GraphQL.Location?
    var fieldLocations: [String: GraphQL.Location?] = [:]
    var indexLocations: [String: GraphQL.Location?] = [:]
    var relations: [RelationDeclaration] = []

    init(model: ModelSchema, location: GraphQL.Location?) {
        self.model = model
        self.location = location
    }

    var name: String { model.name }

    func location(ofField name: String) -> GraphQL.Location? {
        fieldLocations[name] ?? location
    }

    /// Adds a generated field unless the user declared one with that name: Amplify reuses a
    /// declared foreign key rather than adding a second one.
    mutating func ensureField(_ field: Field) {
        guard model.field(named: field.name) == nil else { return }
        model.fields.append(field)
    }

    /// Adds an index unless one with that name exists (both sides of a relation may ask for it).
    mutating func ensureIndex(_ index: Index) {
        guard model.index(named: index.name) == nil else { return }
        model.indexes.append(index)
    }

    /// Appends `createdAt` / `updatedAt` (or their `@model(timestamps:)` names) after every other
    /// field, keeping a field the user declared under that name.
    mutating func addTimestamps() {
        for name in [model.timestamps.createdAt, model.timestamps.updatedAt].compactMap({ $0 }) {
            ensureField(Field(name: name, type: .scalar(.awsDateTime), isRequired: true, isGenerated: true))
        }
    }

    /// Adds the fields `@auth` rules name but the type does not declare, as Amplify does: a
    /// nullable `String` owner field (`owner` unless `ownerField` says otherwise) and, for
    /// dynamic group rules, a nullable `[String]` groups field. They come after the timestamps.
    ///
    /// - Throws: ``SchemaError`` when the type declares such a field with another type: owners
    ///   and groups are strings (Amplify refuses the schema too).
    mutating func addAuthFields() throws(SchemaError) {
        let rules = (model.authRules ?? []) + model.fields.flatMap { $0.authRules ?? [] }
        for rule in rules {
            let name = rule.strategy == .owner ? rule.ownerField : rule.groupsField
            if let name, let declared = model.field(named: name), declared.type != .scalar(.string) && declared.type != .scalar(.id) {
                throw SchemaError(
                    at: location(ofField: name),
                    "field '\(model.name).\(name)' holds the owners or groups of an @auth rule, so it must be String or [String], not \(declared.type.graphQLName)"
                )
            }
            if rule.strategy == .owner {
                ensureField(Field(name: rule.ownerField, type: .scalar(.string), isGenerated: true))
            } else if let groupsField = rule.groupsField {
                ensureField(Field(name: groupsField, type: .scalar(.string), isList: true, isGenerated: true))
            }
        }
    }
}
