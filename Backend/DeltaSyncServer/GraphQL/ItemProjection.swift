import DeltaSyncCore
import DeltaSyncSchema
import GraphQL
import OrderedCollections

/// Writes items straight into the response for a selection set of scalar, enum, non-model and
/// `@belongsTo`/`@hasOne` fields: what sync and list queries select. The GraphQL library
/// completes each list item in its own task group, which caps a 1,000-item page at a few
/// thousand items per second; projecting is two orders of magnitude cheaper.
///
/// Anything it does not handle (directives, nested connections, repeated response keys, a null
/// in a non-null field of a non-model object) returns `nil`, and the caller executes the
/// request the normal way. A null in a non-null field of the item itself (stored under an older
/// schema) nulls the item and is reported as AppSync reports it (see ``ProjectedArray``).
struct ItemProjection: Sendable {
    let schema: AmplifySchema
    let queries: QueryResolvers

    /// A page's items as a JSON array, ready to splice into the response.
    func project(_ items: [Item], of model: Model, onto target: ItemsTarget) async -> ProjectedArray? {
        guard let plan = plan(model, selection: [target.selection], fragments: target.fragments) else { return nil }
        var array = ProjectedArray(model: model.name, capacity: items.count)
        for item in items {
            let start = array.beginItem()
            guard array.end(await project(item, plan: plan, into: &array.json), from: start) else { return nil }
        }
        return array
    }

    /// A writer for items of `model` read straight from the store, when the selection needs
    /// no other reads (no `@belongsTo`/`@hasOne`); `nil` otherwise.
    func writer(for model: Model, selection: SelectionSet, fragments: [String: FragmentDefinition]) -> ItemArrayWriter? {
        guard let plan = plan(model, selection: [selection], fragments: fragments), !plan.hasRelations else { return nil }
        return ItemArrayWriter(projection: self, plan: plan)
    }

    /// How to complete a mutation's results on a selection that needs no other reads, decided
    /// once per request; `nil` where the executor must complete them (a relation, anything
    /// ``collect(_:fragments:)`` refuses).
    ///
    /// The executor completes an object's fields in a task group, one child task per field:
    /// about 25 µs a field, when a DataStore client selects every field of the model.
    func resultPlan(_ model: Model, selection: SelectionSet, fragments: [String: FragmentDefinition]) -> ResultPlan? {
        guard let plan = plan(model, selection: [selection], fragments: fragments), !plan.hasRelations else { return nil }
        return ResultPlan(plan: plan)
    }

    /// A plan for ``object(_:plan:)``.
    struct ResultPlan: Sendable {
        fileprivate let plan: Plan
    }

    /// A mutation's result as the executor would complete it; `nil` for a null in a non-null
    /// field, which the executor reports.
    func object(_ item: Item, plan result: ResultPlan) -> Map? {
        let plan = result.plan
        var object = OrderedDictionary<String, Map>()
        for (key, _, entry) in plan.entries {
            switch entry {
            case .typename(let typeName):
                object[key] = .string(typeName)
            case .metadata(let field, let required), .stored(let field, let required):
                let value = item[field] ?? .null
                if required != nil, value.isNull { return nil }
                object[key] = value.map
            case .value(let field, let subFields):
                let fragments = plan.fragments.fragments
                guard let map = value(item[field.name] ?? .null, of: field, subFields: subFields?.fields, fragments: fragments)
                else { return nil }
                object[key] = map
            case .relation:
                return nil
            }
        }
        return .dictionary(object)
    }

    /// Writes items one by one into a JSON array, while the store reads them.
    struct ItemArrayWriter: Sendable {
        fileprivate let projection: ItemProjection
        fileprivate let plan: Plan

        /// Appends `item` to `array`; `false` when the item cannot be projected and the page
        /// must go through the executor.
        func append(_ item: Item, to array: inout ProjectedArray) -> Bool {
            let start = array.beginItem()
            return array.end(projection.write(item, plan: plan, into: &array.json), from: start)
        }
    }

    /// How writing one item went.
    fileprivate enum Outcome {
        case written
        /// The executor must handle the page.
        case unsupported
        /// A non-null field (response key, GraphQL type) has no value.
        case nullInNonNull(key: String, type: String)
    }

    /// What to write for each selected field of a model, decided once per page rather than
    /// once per item.
    fileprivate struct Plan: Sendable {
        enum Entry: Sendable {
            case typename(String)
            /// `required` is the GraphQL type of a non-null field, `nil` for a nullable one.
            case metadata(String, required: String?)
            /// A scalar or enum that serialises exactly as stored (most fields).
            case stored(String, required: String?)
            /// Floats and non-model objects; the sub-selection is expanded once, here.
            case value(DeltaSyncSchema.Field, subFields: FieldsBox?)
            case relation(Relation, required: Bool, nested: Plan)
        }
        /// Each entry with its response key and its `"key":` already rendered.
        let entries: [(name: String, key: [UInt8], entry: Entry)]
        let fragments: FragmentsBox
        /// Whether writing an item needs other reads.
        let hasRelations: Bool

        init(entries: [(name: String, key: [UInt8], entry: Entry)], fragments: FragmentsBox) {
            self.entries = entries
            self.fragments = fragments
            hasRelations = entries.contains { if case .relation = $0.entry { return true } else { return false } }
        }
    }

    /// AST values are immutable once parsed; boxes let them ride in `Sendable` plans.
    fileprivate struct FieldsBox: @unchecked Sendable { let fields: [GraphQL.Field] }
    fileprivate struct FragmentsBox: @unchecked Sendable { let fragments: [String: FragmentDefinition] }

    private func plan(_ model: Model, selection: [SelectionSet], fragments: [String: FragmentDefinition]) -> Plan? {
        guard let fields = Self.collect(selection, fragments: fragments) else { return nil }
        var entries: [(name: String, key: [UInt8], entry: Plan.Entry)] = []
        var keys: Set<String> = []
        for field in fields {
            let key = field.alias?.value ?? field.name.value
            guard keys.insert(key).inserted else { return nil }
            var keyBytes: [UInt8] = []
            ResponseJSON.writeString(key, to: &keyBytes)
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
                        let nested = plan(
                            queries.environment.model(relation.relatedModel), selection: [sub], fragments: fragments)
                    else { return nil }
                    entries.append((key, keyBytes, .relation(relation, required: schemaField.isRequired, nested: nested)))
                } else if field.selectionSet == nil, Self.writesAsStored(schemaField) {
                    let required = schemaField.isRequired ? Self.typeName(schemaField) : nil
                    entries.append((key, keyBytes, .stored(name, required: required)))
                } else {
                    var subFields: FieldsBox?
                    if let sub = field.selectionSet {
                        guard let collected = Self.collect([sub], fragments: fragments) else { return nil }
                        subFields = FieldsBox(fields: collected)
                    }
                    entries.append((key, keyBytes, .value(schemaField, subFields: subFields)))
                }
            }
        }
        return Plan(entries: entries, fragments: FragmentsBox(fragments: fragments))
    }

    private func project(_ item: Item, plan: Plan, into out: inout [UInt8]) async -> Outcome {
        guard plan.hasRelations else { return write(item, plan: plan, into: &out) }
        out.append(UInt8(ascii: "{"))
        for (i, (name, key, entry)) in plan.entries.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: key)
            guard case .relation(let relation, let required, let nested) = entry else {
                let outcome = write(entry, named: name, of: item, plan: plan, into: &out)
                guard case .written = outcome else { return outcome }
                continue
            }
            let related: ItemObject?
            do {
                related = try await queries.object(from: item, relation: relation)
            } catch {
                return .unsupported
            }
            guard let related else {
                guard !required else { return .nullInNonNull(key: name, type: relation.relatedModel) }
                out.append(contentsOf: "null".utf8)
                continue
            }
            // A null deeper down bubbles up differently; the executor reports it.
            guard case .written = await project(related.item, plan: nested, into: &out) else { return .unsupported }
        }
        out.append(UInt8(ascii: "}"))
        return .written
    }

    /// An item whose plan has no relations: no reads, no suspension.
    private func write(_ item: Item, plan: Plan, into out: inout [UInt8]) -> Outcome {
        out.append(UInt8(ascii: "{"))
        for (i, (name, key, entry)) in plan.entries.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: key)
            let outcome = write(entry, named: name, of: item, plan: plan, into: &out)
            guard case .written = outcome else { return outcome }
        }
        out.append(UInt8(ascii: "}"))
        return .written
    }

    /// One entry other than a relation.
    private func write(_ entry: Plan.Entry, named name: String, of item: Item, plan: Plan, into out: inout [UInt8]) -> Outcome {
        switch entry {
        case .typename(let typeName):
            ResponseJSON.writeString(typeName, to: &out)
        case .metadata(let field, let required), .stored(let field, let required):
            let value = item[field] ?? .null
            if let required, value.isNull { return .nullInNonNull(key: name, type: required) }
            ResponseJSON.write(value, to: &out)
        case .value(let field, let subFields):
            let value = item[field.name] ?? .null
            if field.isRequired, value.isNull { return .nullInNonNull(key: name, type: Self.typeName(field)) }
            guard let map = self.value(value, of: field, subFields: subFields?.fields, fragments: plan.fragments.fragments)
            else { return .unsupported }
            ResponseJSON.write(map, to: &out)
        case .relation:
            return .unsupported
        }
        return .written
    }

    /// The GraphQL type of a field, as error messages name it: `String`, `[String]`.
    private static func typeName(_ field: DeltaSyncSchema.Field) -> String {
        field.isList ? "[\(field.type.graphQLName)]" : field.type.graphQLName
    }

    /// Scalars and enums other than Float serialise exactly as stored.
    private static func writesAsStored(_ field: DeltaSyncSchema.Field) -> Bool {
        switch field.type {
        case .scalar(.float), .nonModel, .model: return false
        case .scalar, .enumType: return true
        }
    }

    /// A stored value as the executor would serialise it; `nil` where projection gives up.
    private func value(
        _ value: JSONValue, of field: DeltaSyncSchema.Field, subFields: [GraphQL.Field]?,
        fragments: [String: FragmentDefinition]
    ) -> Map? {
        if value.isNull {
            // A null in a non-null field is an execution error: leave it to the executor.
            guard !field.isRequired else { return Optional<Map>.none }
            return Map.null
        }
        switch field.type {
        case .nonModel(let typeName):
            guard let subFields, let type = schema.nonModel(named: typeName) else { return nil }
            if field.isList {
                guard let elements = value.arrayValue else { return nil }
                var out: [Map] = []
                for element in elements {
                    guard let projected = nonModel(element, type: type, fields: subFields, fragments: fragments) else { return nil }
                    out.append(projected)
                }
                return .array(out)
            }
            return nonModel(value, type: type, fields: subFields, fragments: fragments)
        case .scalar(.float):
            if field.isList { return value.arrayValue.map { .array($0.map { $0.doubleValue.map(Map.double) ?? .null }) } }
            return value.doubleValue.map(Map.double)
        case .scalar, .enumType:
            guard subFields == nil else { return nil }
            return value.map
        case .model:
            return nil
        }
    }

    private func nonModel(_ value: JSONValue, type: NonModelType, fields: [GraphQL.Field], fragments: [String: FragmentDefinition]) -> Map? {
        guard let object = value.objectValue else { return nil }
        var out = OrderedDictionary<String, Map>()
        for field in fields {
            let key = field.alias?.value ?? field.name.value
            guard out[key] == nil else { return nil }
            if field.name.value == "__typename" {
                out[key] = .string(type.name)
                continue
            }
            guard let schemaField = type.fields.first(where: { $0.name == field.name.value }),
                let projected = self.value(
                    object[field.name.value] ?? .null, of: schemaField,
                    subFields: field.selectionSet.flatMap { Self.collect([$0], fragments: fragments) }, fragments: fragments)
            else { return nil }
            out[key] = projected
        }
        return .dictionary(out)
    }

    /// The fields of selection sets with fragments inlined; `nil` when any directive or
    /// argument appears (the executor handles those).
    static func collect(_ sets: [SelectionSet], fragments: [String: FragmentDefinition]) -> [GraphQL.Field]? {
        SelectionFields.fields(in: sets, fragments: fragments, strict: true)
    }
}

/// A page's items written as a JSON array, with the items written as `null` because a non-null
/// field had no value. AppSync nulls such an item (`items` is `[Model]!`) and reports an error
/// with the field's path; ``RequestExecutor`` adds those errors.
struct ProjectedArray: Sendable {
    struct NulledItem: Sendable, Equatable {
        let index: Int
        /// The field's response key.
        let key: String
        let type: String
    }

    let model: String
    fileprivate(set) var json: [UInt8]
    private(set) var count = 0
    private(set) var nulledItems: [NulledItem] = []

    init(model: String, capacity: Int) {
        self.model = model
        json = [UInt8(ascii: "[")]
        json.reserveCapacity(capacity * 256)
    }

    /// The finished array.
    var bytes: [UInt8] { json + [UInt8(ascii: "]")] }

    /// Starts an item; returns where it starts.
    fileprivate mutating func beginItem() -> Int {
        if count > 0 { json.append(UInt8(ascii: ",")) }
        return json.count
    }

    /// Ends the item started at `start`; `false` when the page must go to the executor.
    fileprivate mutating func end(_ outcome: ItemProjection.Outcome, from start: Int) -> Bool {
        switch outcome {
        case .written:
            break
        case .unsupported:
            return false
        case .nullInNonNull(let key, let type):
            json.removeSubrange(start...)
            json.append(contentsOf: "null".utf8)
            nulledItems.append(NulledItem(index: count, key: key, type: type))
        }
        count += 1
        return true
    }
}
