import DeltaSyncCore
import DeltaSyncSchema
import GraphQL

/// What ``ItemProjection`` writes for each selected field of a model's items, decided once per
/// document rather than once per item.
///
/// Planned: scalars, enums, non-model objects, `__typename`, the sync metadata and
/// `@belongsTo`/`@hasOne` objects, with fragments inlined. Not planned (the executor completes
/// the field): a directive or an argument anywhere in the selection, a nested connection
/// (`@hasMany`), a response key used twice.
struct ItemPlan: Sendable {
    enum Entry: Sendable {
        case typename(String)
        /// `required` is the GraphQL type of a non-null field, `nil` for a nullable one.
        case metadata(String, required: String?)
        /// A scalar or enum that serialises exactly as stored (most fields).
        case stored(String, required: String?)
        /// Floats and non-model objects; the sub-selection is expanded once, here.
        case value(DeltaSyncSchema.Field, subFields: FieldsBox?)
        case relation(Relation, required: Bool, nested: ItemPlan)
    }

    /// The model's name: the parent type in error messages.
    let typeName: String
    /// Each entry with its response key and its `"key":` already rendered.
    let entries: [(name: String, key: [UInt8], entry: Entry)]
    let fragments: FragmentsBox
    /// Whether writing an item needs other reads.
    let hasRelations: Bool

    /// AST values are immutable once parsed; boxes let them ride in `Sendable` plans.
    struct FieldsBox: @unchecked Sendable { let fields: [GraphQL.Field] }
    struct FragmentsBox: @unchecked Sendable { let fragments: [String: FragmentDefinition] }

    /// The plan of `selection` on `model`'s items; `nil` where the executor must complete them.
    ///
    /// - Parameter models: the model of a relation's related type.
    init?(
        _ model: Model, selection: [SelectionSet], fragments: [String: FragmentDefinition],
        models: (String) -> Model
    ) {
        guard let fields = Self.collect(selection, fragments: fragments) else { return nil }
        var entries: [(name: String, key: [UInt8], entry: Entry)] = []
        var keys: Set<String> = []
        for field in fields {
            let key = field.alias?.value ?? field.name.value
            guard keys.insert(key).inserted else { return nil }
            var keyBytes: [UInt8] = []
            JSONWriter.writeString(key, to: &keyBytes)
            keyBytes.append(UInt8(ascii: ":"))
            let name = field.name.value
            switch name {
            case "__typename":
                entries.append((key, keyBytes, .typename(model.name)))
            case "_version", "_lastChangedAt", "_deleted":
                guard field.selectionSet == nil else { return nil }
                let required = ["_version": "Int", "_lastChangedAt": "AWSTimestamp"][name]
                entries.append((key, keyBytes, .metadata(name, required: required)))
            default:
                guard let schemaField = model.field(named: name) else { return nil }
                if let relation = schemaField.relation {
                    guard !relation.isConnection, let sub = field.selectionSet,
                        let nested = ItemPlan(models(relation.relatedModel), selection: [sub], fragments: fragments, models: models)
                    else { return nil }
                    entries.append((key, keyBytes, .relation(relation, required: schemaField.isRequired, nested: nested)))
                } else if field.selectionSet == nil, Self.writesAsStored(schemaField) {
                    let required = schemaField.isRequired ? Self.typeName(schemaField) : nil
                    entries.append((key, keyBytes, .stored(name, required: required)))
                } else {
                    var subFields: FieldsBox?
                    if let sub = field.selectionSet {
                        guard let collected = Self.collect([sub], fragments: fragments),
                            Self.isPlain(collected, fragments: fragments)
                        else { return nil }
                        subFields = FieldsBox(fields: collected)
                    }
                    entries.append((key, keyBytes, .value(schemaField, subFields: subFields)))
                }
            }
        }
        typeName = model.name
        self.entries = entries
        self.fragments = FragmentsBox(fragments: fragments)
        hasRelations = entries.contains { if case .relation = $0.entry { return true } else { return false } }
    }

    /// The GraphQL type of a field, as error messages name it: `String`, `[String]`.
    static func typeName(_ field: DeltaSyncSchema.Field) -> String {
        field.isList ? "[\(field.type.graphQLName)]" : field.type.graphQLName
    }

    /// Scalars and enums other than Float serialise exactly as stored.
    private static func writesAsStored(_ field: DeltaSyncSchema.Field) -> Bool {
        switch field.type {
        case .scalar(.float), .nonModel, .model: return false
        case .scalar, .enumType: return true
        }
    }

    /// Whether the selections below `fields` (of non-model objects) have no directive or
    /// argument either.
    private static func isPlain(_ fields: [GraphQL.Field], fragments: [String: FragmentDefinition]) -> Bool {
        fields.allSatisfy { field in
            guard let sub = field.selectionSet else { return true }
            guard let collected = collect([sub], fragments: fragments) else { return false }
            return isPlain(collected, fragments: fragments)
        }
    }

    /// The fields of selection sets with fragments inlined; `nil` when any directive or
    /// argument appears (the executor handles those).
    static func collect(_ sets: [SelectionSet], fragments: [String: FragmentDefinition]) -> [GraphQL.Field]? {
        SelectionFields.fields(in: sets, fragments: fragments, strict: true)
    }
}
