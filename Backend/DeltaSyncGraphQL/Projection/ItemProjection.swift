import DeltaSyncCore
import DeltaSyncSchema
import GraphQL
import OrderedCollections

/// Writes items straight into the response along an ``ItemPlan``: what sync and list queries
/// select, and a mutation's result. The GraphQL library completes each list item in its own
/// task group, which caps a 1,000-item page at a few thousand items per second; projecting is
/// two orders of magnitude cheaper.
///
/// Projection completes every item it is given, the way the executor would: a field without a
/// value, a stored value that does not fit its type or a relation that cannot be read is null
/// with its error (``ProjectionFailure``), and a null in a non-null field nulls its parent.
struct ItemProjection: Sendable {
    let schema: AmplifySchema
    let queries: QueryResolvers

    /// The plan of `selection` on `model`'s items; `nil` where the executor must complete them.
    func plan(_ model: Model, selection: SelectionSet, fragments: [String: FragmentDefinition]) -> ItemPlan? {
        ItemPlan(model, selection: [selection], fragments: fragments, models: queries.environment.model)
    }

    /// A page's items as a JSON array, reading their relations.
    func project(_ items: [Item], plan: ItemPlan) async -> ProjectedArray {
        var array = ProjectedArray(capacity: items.count)
        for item in items {
            await array.append { out, failures in await project(item, plan: plan, into: &out, failures: &failures) }
        }
        return array
    }

    /// A writer for items read straight from the store, for a plan that needs no other reads
    /// (no `@belongsTo`/`@hasOne`); `nil` otherwise.
    func writer(for plan: ItemPlan) -> ItemArrayWriter? {
        plan.hasRelations ? nil : ItemArrayWriter(projection: self, plan: plan)
    }

    /// Writes items one by one into a JSON array, while the store reads them.
    struct ItemArrayWriter: Sendable {
        fileprivate let projection: ItemProjection
        let plan: ItemPlan

        func append(_ item: Item, to array: inout ProjectedArray) {
            array.append { out, failures in projection.write(item, plan: plan, into: &out, failures: &failures) }
        }
    }

    /// A mutation's or a `get`'s result as the executor would complete it, for a plan that
    /// needs no other reads; `nil` when a field has no value, which the executor reports.
    ///
    /// The executor completes an object's fields in a task group, one child task per field:
    /// about 25 µs a field, when a DataStore client selects every field of the model.
    func object(_ item: Item, plan: ItemPlan) -> Map? {
        guard !plan.hasRelations else { return nil }
        var object = OrderedDictionary<String, Map>()
        var failures: [ProjectionFailure] = []
        for (key, _, entry) in plan.entries {
            switch entry {
            case .typename(let typeName):
                object[key] = .string(typeName)
            case .metadata(let field, let required), .stored(let field, let required):
                let value = item[field] ?? .null
                if required != nil, value.isNull { return nil }
                object[key] = value.map
            case .value(let field, let subFields):
                guard let map = value(item[field.name] ?? .null, of: field, subFields: subFields?.fields, plan: plan, failures: &failures),
                    failures.isEmpty
                else { return nil }
                object[key] = map
            case .relation:
                return nil
            }
        }
        return .dictionary(object)
    }

    // MARK: - Writing

    /// Writes `item` with its relations; `false`, having written nothing, when it is null.
    private func project(_ item: Item, plan: ItemPlan, into out: inout [UInt8], failures: inout [ProjectionFailure]) async -> Bool {
        guard plan.hasRelations else { return write(item, plan: plan, into: &out, failures: &failures) }
        let object = ObjectText(&out)
        for (i, (name, key, entry)) in plan.entries.enumerated() {
            let mark = object.begin(i, key: key, into: &out, failures: failures)
            let written: Bool
            if case .relation(let relation, let required, let nested) = entry {
                written = await project(relation, required: required, nested: nested, of: item, parent: plan.typeName, into: &out, failures: &failures)
            } else {
                written = write(entry, of: item, plan: plan, into: &out, failures: &failures)
            }
            guard object.end(written, name: name, mark: mark, into: &out, failures: &failures) else { return false }
        }
        return object.finish(into: &out)
    }

    /// A `@belongsTo`/`@hasOne` object; `false` when it is null and `required`.
    private func project(
        _ relation: Relation, required: Bool, nested: ItemPlan, of item: Item, parent: String,
        into out: inout [UInt8], failures: inout [ProjectionFailure]
    ) async -> Bool {
        let related: ItemObject?
        do {
            related = try await queries.object(from: item, relation: relation)
        } catch {
            let shown = AppSyncError.redacting(error, at: "\(parent).\(relation.relatedModel)", logger: queries.environment.logger)
            failures.append(ProjectionFailure(.failed(shown)))
            return nullable(!required, into: &out)
        }
        guard let related else {
            if required { failures.append(ProjectionFailure(.nullInNonNull(type: relation.relatedModel, parent: parent))) }
            return nullable(!required, into: &out)
        }
        guard await project(related.item, plan: nested, into: &out, failures: &failures) else {
            return nullable(!required, into: &out)
        }
        return true
    }

    /// Writes `null` where the field may be null; `false` where its parent must be.
    private func nullable(_ nullable: Bool, into out: inout [UInt8]) -> Bool {
        if nullable { out.append(contentsOf: "null".utf8) }
        return nullable
    }

    /// An item whose plan has no relations: no reads, no suspension.
    fileprivate func write(_ item: Item, plan: ItemPlan, into out: inout [UInt8], failures: inout [ProjectionFailure]) -> Bool {
        let object = ObjectText(&out)
        for (i, (name, key, entry)) in plan.entries.enumerated() {
            let mark = object.begin(i, key: key, into: &out, failures: failures)
            let written = write(entry, of: item, plan: plan, into: &out, failures: &failures)
            guard object.end(written, name: name, mark: mark, into: &out, failures: &failures) else { return false }
        }
        return object.finish(into: &out)
    }

    /// One entry other than a relation; `false` when its object must be null.
    private func write(
        _ entry: ItemPlan.Entry, of item: Item, plan: ItemPlan, into out: inout [UInt8], failures: inout [ProjectionFailure]
    ) -> Bool {
        switch entry {
        case .typename(let typeName):
            JSONWriter.writeString(typeName, to: &out)
        case .metadata(let field, let required), .stored(let field, let required):
            let value = item[field] ?? .null
            if let required, value.isNull {
                failures.append(ProjectionFailure(.nullInNonNull(type: required, parent: plan.typeName)))
                return false
            }
            JSONWriter.write(value, to: &out)
        case .value(let field, let subFields):
            guard let map = value(item[field.name] ?? .null, of: field, subFields: subFields?.fields, plan: plan, failures: &failures)
            else { return nullable(!field.isRequired, into: &out) }
            ResponseJSON.write(map, to: &out)
        case .relation:
            preconditionFailure("relations are written by project(_:plan:into:failures:)")
        }
        return true
    }

    // MARK: - Values

    /// A stored value as the executor would serialise it; `nil` when it is null because of a
    /// failure (recorded in `failures`, paths relative to the value).
    private func value(
        _ value: JSONValue, of field: DeltaSyncSchema.Field, subFields: [GraphQL.Field]?, plan: ItemPlan,
        failures: inout [ProjectionFailure]
    ) -> Map? {
        self.value(value, of: field, subFields: subFields, parent: plan.typeName, fragments: plan.fragments.fragments, failures: &failures)
    }

    private func value(
        _ value: JSONValue, of field: DeltaSyncSchema.Field, subFields: [GraphQL.Field]?, parent: String,
        fragments: [String: FragmentDefinition], failures: inout [ProjectionFailure]
    ) -> Map? {
        if value.isNull {
            guard field.isRequired else { return .null }
            failures.append(ProjectionFailure(.nullInNonNull(type: ItemPlan.typeName(field), parent: parent)))
            return nil
        }
        func unserializable() -> Map? {
            failures.append(ProjectionFailure(.unserializable(value, type: ItemPlan.typeName(field))))
            return nil
        }
        switch field.type {
        case .nonModel(let typeName):
            guard let subFields, let type = schema.nonModel(named: typeName) else { return unserializable() }
            guard field.isList else { return nonModel(value, type: type, fields: subFields, fragments: fragments, failures: &failures) }
            guard let elements = value.arrayValue else { return unserializable() }
            var out: [Map] = []
            for (n, element) in elements.enumerated() {
                let mark = failures.count
                let projected = element.isNull ? nil : nonModel(element, type: type, fields: subFields, fragments: fragments, failures: &failures)
                failures.place(from: mark, within: .index(n))
                if projected == nil, field.isListElementRequired {
                    if element.isNull {
                        var failure = ProjectionFailure(.nullInNonNull(type: typeName, parent: parent))
                        failure.within(.index(n))
                        failures.append(failure)
                    }
                    return nil
                }
                out.append(projected ?? .null)
            }
            return .array(out)
        case .scalar(.float):
            if field.isList {
                guard let elements = value.arrayValue else { return unserializable() }
                return .array(elements.map { $0.doubleValue.map(Map.double) ?? .null })
            }
            guard let double = value.doubleValue else { return unserializable() }
            return .double(double)
        case .scalar, .enumType:
            return value.map
        case .model:
            return unserializable()
        }
    }

    /// A non-model object; `nil` when a non-null field of it had no value.
    private func nonModel(
        _ value: JSONValue, type: NonModelType, fields: [GraphQL.Field], fragments: [String: FragmentDefinition],
        failures: inout [ProjectionFailure]
    ) -> Map? {
        guard let object = value.objectValue else {
            failures.append(ProjectionFailure(.unserializable(value, type: type.name)))
            return nil
        }
        var out = OrderedDictionary<String, Map>()
        for field in fields {
            let key = field.alias?.value ?? field.name.value
            if field.name.value == "__typename" {
                out[key] = .string(type.name)
                continue
            }
            // Validation ensures the field exists; the plan ensures keys are not repeated.
            guard let schemaField = type.fields.first(where: { $0.name == field.name.value }) else { continue }
            let mark = failures.count
            let projected = self.value(
                object[field.name.value] ?? .null, of: schemaField,
                subFields: field.selectionSet.flatMap { ItemPlan.collect([$0], fragments: fragments) }, parent: type.name,
                fragments: fragments, failures: &failures)
            failures.place(from: mark, within: .key(key))
            guard let projected else {
                if schemaField.isRequired { return nil }
                out[key] = .null
                continue
            }
            out[key] = projected
        }
        return .dictionary(out)
    }
}

/// One object being written member by member, taken back out of the text when a member nulls it.
private struct ObjectText {
    private let start: Int

    init(_ out: inout [UInt8]) {
        start = out.count
        out.append(UInt8(ascii: "{"))
    }

    /// Writes what precedes member `index`; returns where its failures start.
    func begin(_ index: Int, key: [UInt8], into out: inout [UInt8], failures: [ProjectionFailure]) -> Int {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        out.append(contentsOf: key)
        return failures.count
    }

    /// After the member `name`: its failures placed under it; `false`, with the object's text
    /// removed, when it was not written and the object is null.
    func end(_ written: Bool, name: String, mark: Int, into out: inout [UInt8], failures: inout [ProjectionFailure]) -> Bool {
        failures.place(from: mark, within: .key(name))
        if !written { out.removeSubrange(start...) }
        return written
    }

    func finish(into out: inout [UInt8]) -> Bool {
        out.append(UInt8(ascii: "}"))
        return true
    }
}
