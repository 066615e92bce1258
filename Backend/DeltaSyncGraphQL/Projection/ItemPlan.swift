import DeltaSyncCore
import DeltaSyncSchema
import GraphQL

/// What ``ItemProjection`` writes for each selected field of a model's items, decided once per
/// selection rather than once per item. It is the one plan of how a model's fields are
/// written, for every response path (see ``Purpose``).
///
/// Planned: scalars, enums, non-model objects, `__typename`, the sync metadata and
/// `@belongsTo`/`@hasOne` objects, with fragments inlined.
struct ItemPlan: Sendable {
    /// What the plan is for, which decides what it may hold and how missing values are written.
    enum Purpose: Sendable {
        /// A response, planned with its cached document before variables are known. Only plain
        /// selections: a directive or an argument anywhere, a nested connection (`@hasMany`) or
        /// a response key used twice gets no plan, and the executor completes the field.
        /// Relations are read from the store.
        case response
        /// A subscription's events, planned when it starts: `@include`/`@skip` are applied with
        /// its variables and repeated keys merged. The event carries the related objects and
        /// connections the mutation selected; nothing is read.
        case event(variables: [String: JSONValue])
        /// A failed mutation's `errors[].data`: the stored item as the mutation selected it
        /// (directives applied, keys merged), relations read from the store. Values are written
        /// as stored: a missing one is `null`, never an error, and connections are `null`.
        case errorData(variables: [String: JSONValue])
    }

    enum Entry: Sendable {
        case typename(String)
        /// `required` is the GraphQL type of a non-null field, `nil` for a nullable one.
        case metadata(String, required: String?)
        /// A scalar or enum that serialises exactly as stored (most fields).
        case stored(String, required: String?)
        /// An owner field of a `sub::username` rule: stored as `<sub>::<username>`, shown as
        /// the username (``OwnerName``).
        case ownerName(String, required: String?)
        /// Floats and non-model objects; the sub-selection is expanded once, here.
        ///
        /// The large payloads are `indirect`: every field of every item copies its entry, and a
        /// small entry copies with one retain.
        indirect case value(DeltaSyncSchema.Field, subFields: FieldsBox?)
        indirect case relation(DeltaSyncSchema.Field, Relation, nested: ItemPlan)
        /// A `@hasMany` connection carried by an event (never in a ``Purpose/response`` plan).
        indirect case connection(DeltaSyncSchema.Field, EventPagePlan)

        /// Whether a null here nulls the parent.
        var isRequired: Bool {
            switch self {
            case .typename: return true
            case .metadata(_, let required), .stored(_, let required), .ownerName(_, let required): return required != nil
            case .value(let field, _), .relation(let field, _, _): return field.isRequired
            case .connection: return false
            }
        }
    }

    /// One selected field. A class: writing an item visits every member, and copying a struct
    /// holding these strings and the entry cost more than the rest of the visit.
    final class Member: Sendable {
        /// The response key.
        let key: String
        /// `"key":`, rendered once.
        let renderedKey: [UInt8]
        /// The schema field, as ``FieldAuthorization`` names it.
        let field: String
        let entry: Entry

        init(key: String, renderedKey: [UInt8], field: String, entry: Entry) {
            self.key = key
            self.renderedKey = renderedKey
            self.field = field
            self.entry = entry
        }
    }

    /// The model's name: the parent type in error messages.
    let typeName: String
    let members: [Member]
    /// The schema field of each member, by the member's index: the slots a store's row is read
    /// by (``StoredRow``).
    let fields: [String]
    let fragments: FragmentsBox
    let purpose: Purpose
    /// Whether writing an item needs other reads.
    let hasRelations: Bool

    /// Whether a missing value is an error (everywhere but error data). Stored: it is read for
    /// every field of every item.
    let completes: Bool

    /// AST values are immutable once parsed; boxes let them ride in `Sendable` plans.
    struct FieldsBox: @unchecked Sendable { let fields: [GraphQL.Field] }
    struct FragmentsBox: @unchecked Sendable { let fragments: [String: FragmentDefinition] }

    /// The plan of `selection` on `model`'s items; `nil` where a ``Purpose/response`` plan
    /// leaves the items to the executor.
    ///
    /// - Parameter models: the model of a relation's related type.
    /// - Parameter functionFields: `Type.field` of the fields `@function` resolves, which a
    ///   response plan leaves to the executor (events carry the mutation's values instead).
    init?(
        _ model: ModelSchema, selection: [SelectionSet], fragments: [String: FragmentDefinition], purpose: Purpose = .response,
        models: (String) -> ModelSchema, functionFields: Set<String> = []
    ) {
        guard let fields = Self.collect(selection, fragments: fragments, purpose: purpose) else { return nil }
        var members: [Member] = []
        for (key, asts) in fields {
            let field = asts[0]
            var renderedKey: [UInt8] = []
            JSONWriter.writeString(key, to: &renderedKey)
            renderedKey.append(UInt8(ascii: ":"))
            let name = field.name.value
            let subSelections = asts.compactMap(\.selectionSet)
            let entry: Entry
            switch name {
            case "__typename":
                entry = .typename(model.name)
            case "_version", "_lastChangedAt", "_deleted":
                guard field.selectionSet == nil else { return nil }
                entry = .metadata(name, required: ["_version": "Int", "_lastChangedAt": "AWSTimestamp"][name])
            default:
                guard let schemaField = model.field(named: name) else { return nil }
                if case .response = purpose, !functionFields.isEmpty, functionFields.contains("\(model.name).\(name)") { return nil }
                if let relation = schemaField.relation {
                    let related = models(relation.relatedModel)
                    if relation.isConnection {
                        guard case .response = purpose else {
                            entry = .connection(schemaField, EventPagePlan(
                                related, selection: subSelections, fragments: fragments, purpose: purpose, models: models))
                            break
                        }
                        return nil
                    }
                    guard !subSelections.isEmpty,
                        let nested = ItemPlan(
                            related, selection: subSelections, fragments: fragments, purpose: purpose, models: models,
                            functionFields: functionFields)
                    else { return nil }
                    entry = .relation(schemaField, relation, nested: nested)
                } else if subSelections.isEmpty, model.compositeOwnerFields.contains(name) {
                    entry = .ownerName(name, required: schemaField.isRequired ? Self.typeName(schemaField) : nil)
                } else if subSelections.isEmpty, Self.writesAsStored(schemaField) {
                    entry = .stored(name, required: schemaField.isRequired ? Self.typeName(schemaField) : nil)
                } else {
                    var subFields: FieldsBox?
                    if !subSelections.isEmpty {
                        guard let collected = Self.collectFields(subSelections, fragments: fragments, purpose: purpose),
                            Self.isPlain(collected, fragments: fragments, purpose: purpose)
                        else { return nil }
                        subFields = FieldsBox(fields: collected)
                    }
                    entry = .value(schemaField, subFields: subFields)
                }
            }
            members.append(Member(key: key, renderedKey: renderedKey, field: name, entry: entry))
        }
        typeName = model.name
        self.members = members
        self.fields = members.map(\.field)
        self.fragments = FragmentsBox(fragments: fragments)
        self.purpose = purpose
        if case .errorData = purpose { completes = false } else { completes = true }
        if case .event = purpose {
            hasRelations = false
        } else {
            hasRelations = members.contains { if case .relation = $0.entry { return true } else { return false } }
        }
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

    /// Whether the selections below `fields` (of non-model objects) can be planned too.
    private static func isPlain(_ fields: [GraphQL.Field], fragments: [String: FragmentDefinition], purpose: Purpose) -> Bool {
        fields.allSatisfy { field in
            guard let sub = field.selectionSet else { return true }
            guard let collected = collectFields([sub], fragments: fragments, purpose: purpose) else { return false }
            return isPlain(collected, fragments: fragments, purpose: purpose)
        }
    }

    /// The fields below a non-model object's field, as this plan selects them.
    func subFields(of field: GraphQL.Field) -> [GraphQL.Field]? {
        field.selectionSet.flatMap { Self.collectFields([$0], fragments: fragments.fragments, purpose: purpose) }
    }

    /// The fields of selection sets with fragments inlined, in order; `nil` for a response plan
    /// when any directive or argument appears (the executor handles those).
    private static func collectFields(
        _ sets: [SelectionSet], fragments: [String: FragmentDefinition], purpose: Purpose
    ) -> [GraphQL.Field]? {
        switch purpose {
        case .response:
            return SelectionFields.fields(in: sets, fragments: fragments, strict: true)
        case .event(let variables), .errorData(let variables):
            return sets.flatMap { SelectionFields.included(in: $0, fragments: fragments, variables: variables) }
        }
    }

    /// The selected fields by response key, in order of first appearance. A response plan
    /// refuses a repeated key; the others merge it, as GraphQL execution does.
    private static func collect(
        _ sets: [SelectionSet], fragments: [String: FragmentDefinition], purpose: Purpose
    ) -> [(key: String, fields: [GraphQL.Field])]? {
        guard let fields = collectFields(sets, fragments: fragments, purpose: purpose) else { return nil }
        var grouped: [(key: String, fields: [GraphQL.Field])] = []
        var index: [String: Int] = [:]
        for field in fields {
            let key = field.alias?.value ?? field.name.value
            if let at = index[key] {
                guard case .response = purpose else {
                    grouped[at].fields.append(field)
                    continue
                }
                return nil
            }
            index[key] = grouped.count
            grouped.append((key, [field]))
        }
        return grouped
    }
}

/// A `@hasMany` connection as an event carries it (`{"items": [...], "nextToken": ...}`): its
/// items are planned like any model's.
struct EventPagePlan: Sendable {
    enum Member: Sendable {
        case typename(String)
        /// `items: [Model]!`, the elements nullable.
        case items(ItemPlan?)
        /// `nextToken`, `startedAt`: written as carried.
        case stored(String)
    }

    /// `ModelPostConnection`.
    let typeName: String
    let members: [(key: String, renderedKey: [UInt8], member: Member)]

    init(
        _ model: ModelSchema, selection: [SelectionSet], fragments: [String: FragmentDefinition], purpose: ItemPlan.Purpose,
        models: (String) -> ModelSchema
    ) {
        typeName = "Model\(model.name)PageObject"
        var members: [(key: String, renderedKey: [UInt8], member: Member)] = []
        var seen: Set<String> = []
        let fields = selection.flatMap { set -> [GraphQL.Field] in
            guard case .event(let variables) = purpose else { return [] }
            return SelectionFields.included(in: set, fragments: fragments, variables: variables)
        }
        for field in fields {
            let key = field.alias?.value ?? field.name.value
            guard seen.insert(key).inserted else { continue }
            var renderedKey: [UInt8] = []
            JSONWriter.writeString(key, to: &renderedKey)
            renderedKey.append(UInt8(ascii: ":"))
            let member: Member
            switch field.name.value {
            case "__typename": member = .typename(typeName)
            case "items":
                let sets = fields.filter { ($0.alias?.value ?? $0.name.value) == key }.compactMap(\.selectionSet)
                member = .items(ItemPlan(model, selection: sets, fragments: fragments, purpose: purpose, models: models))
            default: member = .stored(field.name.value)
            }
            members.append((key, renderedKey, member))
        }
        self.members = members
    }
}
