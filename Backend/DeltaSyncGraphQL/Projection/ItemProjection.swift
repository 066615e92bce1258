import DeltaSyncCore
import DeltaSyncSchema
import GraphQL
import OrderedCollections

/// Writes items straight into the response along an ``ItemPlan``: what sync and list queries
/// select, a mutation's or `get`'s result, a realtime event (``EventPlan``) and a failed
/// mutation's error data. The GraphQL library completes each list item in its own task group,
/// which caps a 1,000-item page at a few thousand items per second; projecting is two orders
/// of magnitude cheaper.
///
/// Projection completes every item it is given, the way the executor would: a field without a
/// value, a stored value that does not fit its type, a relation that cannot be read or a field
/// the caller may not read is null with its error (``ProjectionFailure``), and a null in a
/// non-null field nulls its parent.
///
/// A projection is one caller's (``ItemPlanner/projection(for:)``): there is none that reads
/// for nobody.
struct ItemProjection: Sendable {
    /// What is the same for every caller: the schema, its plans, the relation reads.
    let planner: ItemPlanner
    /// Who reads: asked for every field but `__typename`, and for every related object.
    let caller: Caller

    var schema: AmplifySchema { planner.schema }

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
    /// needs no other reads; `nil` when a field has no value or is denied, which the executor
    /// then reports.
    ///
    /// The executor completes an object's fields in a task group, one child task per field:
    /// about 25 µs a field, when a DataStore client selects every field of the model.
    func object(_ item: Item, plan: ItemPlan) -> Map? {
        guard !plan.hasRelations else { return nil }
        var object = OrderedDictionary<String, Map>()
        var failures: [ProjectionFailure] = []
        let asks = caller.mayDeny(on: plan.typeName)
        for member in plan.members {
            if asks, member.field != "__typename", caller.denial(of: member.field, on: plan.typeName, in: item) != nil {
                return nil
            }
            switch member.entry {
            case .typename(let typeName):
                object[member.key] = .string(typeName)
            case .metadata(let field, let required), .stored(let field, let required):
                let value = item[field] ?? .null
                if required != nil, value.isNull { return nil }
                object[member.key] = value.map
            case .ownerName(let field, let required):
                let value = OwnerName.shown(item[field] ?? .null)
                if required != nil, value.isNull { return nil }
                object[member.key] = value.map
            case .value(let field, let subFields):
                guard let map = value(item[field.name] ?? .null, of: field, subFields: subFields?.fields, plan: plan, failures: &failures),
                    failures.isEmpty
                else { return nil }
                object[member.key] = map
            case .relation, .connection:
                return nil
            }
        }
        return .dictionary(object)
    }

    /// A failed mutation's `errors[].data`: the stored item projected onto the mutation's
    /// selection (``ItemPlan/Purpose/errorData(variables:)``); `null` if it cannot be planned or
    /// the caller may not read the item (a caller who may update but not read learns nothing).
    func errorData(_ item: Item, model: ModelSchema, field: MutationField) async -> JSONValue {
        guard caller.mayRead(item, of: model),
            let plan = planner.plan(model, selection: field.selections, fragments: field.fragments, purpose: .errorData(variables: field.variables))
        else { return .null }
        var out: [UInt8] = []
        var failures: [ProjectionFailure] = []
        guard await project(item, plan: plan, into: &out, failures: &failures) else { return .null }
        return (try? JSONValue(parsing: String(decoding: out, as: UTF8.self))) ?? .null
    }

    // MARK: - Writing

    /// Writes `item` with its relations; `false`, having written nothing, when it is null.
    private func project(_ item: Item, plan: ItemPlan, into out: inout [UInt8], failures: inout [ProjectionFailure]) async -> Bool {
        guard plan.hasRelations else { return write(item, plan: plan, into: &out, failures: &failures) }
        let object = ObjectText(&out)
        let asks = caller.mayDeny(on: plan.typeName)
        for (i, member) in plan.members.enumerated() {
            let mark = object.begin(i, key: member.renderedKey, into: &out, failures: failures)
            let written: Bool
            if case .relation(let field, let relation, let nested) = member.entry,
                caller.denial(of: member.field, on: plan.typeName, in: item) == nil
            {
                written = await project(relation, of: field, nested: nested, of: item, plan: plan, into: &out, failures: &failures)
            } else {
                written = write(member, of: item, plan: plan, asks: asks, into: &out, failures: &failures)
            }
            guard object.end(written, key: member.key, mark: mark, into: &out, failures: &failures) else { return false }
        }
        return object.finish(into: &out)
    }

    /// A `@belongsTo`/`@hasOne` object read from the store, if the caller may read it (else
    /// `null` with the field's `Unauthorized` error); `false` when its parent must be null.
    private func project(
        _ relation: Relation, of field: DeltaSyncSchema.Field, nested: ItemPlan, of item: Item, plan: ItemPlan,
        into out: inout [UInt8], failures: inout [ProjectionFailure]
    ) async -> Bool {
        let related: Item?
        do {
            let access = caller.related(planner.model(relation.relatedModel), field: field.name, parentType: plan.typeName)
            related = try await planner.relations.relatedItem(of: item, through: relation, access: access)
        } catch {
            let shown = AppSyncError.redacting(error, at: "\(plan.typeName).\(relation.relatedModel)", logger: planner.logger)
            if plan.completes { failures.append(ProjectionFailure(.failed(shown))) }
            return nullable(field, plan: plan, into: &out)
        }
        guard let related else { return missing(field, type: relation.relatedModel, plan: plan, into: &out, failures: &failures) }
        guard await project(related, plan: nested, into: &out, failures: &failures) else {
            return nullable(field, plan: plan, into: &out)
        }
        return true
    }

    /// An item whose plan reads nothing: no suspension.
    fileprivate func write(_ item: Item, plan: ItemPlan, into out: inout [UInt8], failures: inout [ProjectionFailure]) -> Bool {
        let object = ObjectText(&out)
        let asks = caller.mayDeny(on: plan.typeName)
        for (i, member) in plan.members.enumerated() {
            let mark = object.begin(i, key: member.renderedKey, into: &out, failures: failures)
            let written = write(member, of: item, plan: plan, asks: asks, into: &out, failures: &failures)
            guard object.end(written, key: member.key, mark: mark, into: &out, failures: &failures) else { return false }
        }
        return object.finish(into: &out)
    }

    /// An event (``ItemPlan/Purpose/event(variables:)``): the data of `{"data":{"<key>":...}}`,
    /// `false` when it is null.
    func writeEvent(_ item: Item, plan: ItemPlan, into out: inout [UInt8], failures: inout [ProjectionFailure]) -> Bool {
        write(item, plan: plan, into: &out, failures: &failures)
    }

    /// One member that reads nothing (or a denied relation); `false` when its object must be null.
    /// `asks`: whether the caller may be denied a field of the plan's type (asked once an item).
    private func write(
        _ member: ItemPlan.Member, of item: Item, plan: ItemPlan, asks: Bool, into out: inout [UInt8], failures: inout [ProjectionFailure]
    ) -> Bool {
        if asks, let denied = denied(member, of: item, plan: plan, into: &out, failures: &failures) { return denied }
        return write(member.entry, of: item, plan: plan, into: &out, failures: &failures)
    }

    /// What ``FieldAuthorization`` says of `member`: `nil` when it may be read, otherwise
    /// whether the denied field's `null` was written (`false`: its parent must be null).
    private func denied(
        _ member: ItemPlan.Member, of item: Item, plan: ItemPlan, into out: inout [UInt8], failures: inout [ProjectionFailure]
    ) -> Bool? {
        if case .typename = member.entry { return nil }
        guard let denial = caller.denial(of: member.field, on: plan.typeName, in: item) else { return nil }
        guard plan.completes else {
            out.append(contentsOf: "null".utf8)
            return true
        }
        failures.append(ProjectionFailure(.failed(denial)))
        return member.entry.isRequired ? false : nullable(true, into: &out)
    }

    /// One entry other than a relation read from the store; `false` when its object must be null.
    private func write(
        _ entry: ItemPlan.Entry, of item: Item, plan: ItemPlan, into out: inout [UInt8], failures: inout [ProjectionFailure]
    ) -> Bool {
        switch entry {
        case .typename(let typeName):
            JSONWriter.writeString(typeName, to: &out)
        case .metadata(let field, let required), .stored(let field, let required), .ownerName(let field, let required):
            var value = item[field] ?? .null
            if case .ownerName = entry { value = OwnerName.shown(value) }
            if plan.completes, let required, value.isNull {
                failures.append(ProjectionFailure(.nullInNonNull(type: required, parent: plan.typeName)))
                return false
            }
            JSONWriter.write(value, to: &out)
        case .value(let field, let subFields):
            guard let map = value(item[field.name] ?? .null, of: field, subFields: subFields?.fields, plan: plan, failures: &failures)
            else { return nullable(field, plan: plan, into: &out) }
            ResponseJSON.write(map, to: &out)
        case .relation(let field, let relation, let nested):
            // Only an event's plan writes relations here: the event carries the related object,
            // shown only if the subscriber may read it.
            precondition(!plan.hasRelations, "relations read from the store are written by project(_:plan:into:failures:)")
            guard case .object(let related)? = item[field.name] else {
                return missing(field, type: relation.relatedModel, plan: plan, into: &out, failures: &failures)
            }
            let access = caller.related(planner.model(relation.relatedModel), field: field.name, parentType: plan.typeName)
            guard access.admits(related) else {
                failures.append(ProjectionFailure(.failed(access.denial)))
                return nullable(field, plan: plan, into: &out)
            }
            guard write(related, plan: nested, into: &out, failures: &failures) else { return nullable(field, plan: plan, into: &out) }
        case .connection(let field, let connection):
            guard case .object(let carried)? = item[field.name] else { return nullable(true, into: &out) }
            let related = planner.model(field.relation?.relatedModel ?? "")
            let access = caller.related(related, field: field.name, parentType: plan.typeName)
            guard case .denied = access.access else {
                return write(carried, connection: connection, readable: access, into: &out, failures: &failures)
            }
            failures.append(ProjectionFailure(.failed(access.denial)))
            return nullable(true, into: &out)
        }
        return true
    }

    /// A related object that is not there: an error where the field is non-null.
    private func missing(
        _ field: DeltaSyncSchema.Field, type: String, plan: ItemPlan, into out: inout [UInt8], failures: inout [ProjectionFailure]
    ) -> Bool {
        if plan.completes, field.isRequired {
            failures.append(ProjectionFailure(.nullInNonNull(type: type, parent: plan.typeName)))
        }
        return nullable(field, plan: plan, into: &out)
    }

    /// Writes `null` where `field` may be null; `false` where its parent must be.
    private func nullable(_ field: DeltaSyncSchema.Field, plan: ItemPlan, into out: inout [UInt8]) -> Bool {
        nullable(!(plan.completes && field.isRequired), into: &out)
    }

    private func nullable(_ nullable: Bool, into out: inout [UInt8]) -> Bool {
        if nullable { out.append(contentsOf: "null".utf8) }
        return nullable
    }

    /// A connection an event carries, with the items the subscriber may read; `false` when
    /// `items` is missing (its parent is then null).
    private func write(
        _ carried: Item, connection: EventPagePlan, readable: RelatedAccess, into out: inout [UInt8], failures: inout [ProjectionFailure]
    ) -> Bool {
        let object = ObjectText(&out)
        for (i, (key, renderedKey, member)) in connection.members.enumerated() {
            let mark = object.begin(i, key: renderedKey, into: &out, failures: failures)
            var written = true
            switch member {
            case .typename(let name):
                JSONWriter.writeString(name, to: &out)
            case .stored(let name):
                JSONWriter.write(carried[name] ?? .null, to: &out)
            case .items(let plan):
                if let plan, case .array(let carriedElements)? = carried["items"] {
                    let elements = carriedElements.filter { $0.objectValue.map(readable.admits) ?? true }
                    out.append(UInt8(ascii: "["))
                    for (n, element) in elements.enumerated() {
                        if n > 0 { out.append(UInt8(ascii: ",")) }
                        let start = failures.count
                        if !(element.objectValue.map { write($0, plan: plan, into: &out, failures: &failures) } ?? false) {
                            out.append(contentsOf: "null".utf8)
                        }
                        failures.place(from: start, within: .index(n))
                    }
                    out.append(UInt8(ascii: "]"))
                } else {
                    failures.append(ProjectionFailure(.nullInNonNull(type: "[\(plan?.typeName ?? "")]", parent: connection.typeName)))
                    written = false
                }
            }
            guard object.end(written, key: key, mark: mark, into: &out, failures: &failures) else { return nullable(true, into: &out) }
        }
        return object.finish(into: &out)
    }
}
