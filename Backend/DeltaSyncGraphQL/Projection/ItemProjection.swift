import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncStorage
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
    /// A query's related items, each read once (``RequestScope/relatedReads``); `nil` reads
    /// every related object anew.
    var reads: RelatedReads? = nil

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
        plan.hasRelations ? nil : ItemArrayWriter(projection: self, plan: plan, asks: caller.mayDeny(on: plan.typeName))
    }

    /// Writes items one by one into a JSON array, while the store reads them: from the row,
    /// field by field, without building the item (``StoredRow``).
    struct ItemArrayWriter: Sendable {
        fileprivate let projection: ItemProjection
        let plan: ItemPlan
        /// Whether the caller may be denied a field of the plan's type.
        fileprivate let asks: Bool

        /// The fields the store reads each row by (``ItemReadTransaction/query(_:_:fields:rows:)``).
        var fields: [String] { plan.fields }

        func append(_ row: any StoredRow, to array: inout ProjectedArray) {
            array.append { out, failures in
                // Whether a field is denied depends on the item's values: build it once, not
                // once a field.
                guard asks else { return projection.write(row, plan: plan, asks: false, into: &out, failures: &failures) }
                return projection.write(ItemRow(row.item(), fields: plan.fields), plan: plan, asks: true, into: &out, failures: &failures)
            }
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
        let row = ItemRow(item, fields: plan.fields)
        for (i, member) in plan.members.enumerated() {
            let mark = object.begin(i, key: member.renderedKey, into: &out, failures: failures)
            let written: Bool
            if case .relation(let field, let relation, let nested) = member.entry,
                caller.denial(of: member.field, on: plan.typeName, in: item) == nil
            {
                written = await project(relation, of: field, nested: nested, of: item, plan: plan, into: &out, failures: &failures)
            } else {
                written = write(member, at: i, of: row, plan: plan, asks: asks, into: &out, failures: &failures)
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
            related = try await planner.relations.relatedItem(of: item, through: relation, access: access, reads: reads)
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
    func write(_ item: Item, plan: ItemPlan, into out: inout [UInt8], failures: inout [ProjectionFailure]) -> Bool {
        write(ItemRow(item, fields: plan.fields), plan: plan, asks: caller.mayDeny(on: plan.typeName), into: &out, failures: &failures)
    }

    /// An item read by `plan`'s fields, whose plan reads nothing. `asks`: whether the caller
    /// may be denied a field of the plan's type.
    fileprivate func write<Row: StoredRow>(
        _ row: Row, plan: ItemPlan, asks: Bool, into out: inout [UInt8], failures: inout [ProjectionFailure]
    ) -> Bool {
        let object = ObjectText(&out)
        for (i, member) in plan.members.enumerated() {
            let mark = object.begin(i, key: member.renderedKey, into: &out, failures: failures)
            let written = write(member, at: i, of: row, plan: plan, asks: asks, into: &out, failures: &failures)
            guard object.end(written, key: member.key, mark: mark, into: &out, failures: &failures) else { return false }
        }
        return object.finish(into: &out)
    }

    /// An event (``ItemPlan/Purpose/event(variables:)``): the data of `{"data":{"<key>":...}}`,
    /// `false` when it is null.
    func writeEvent(_ item: Item, plan: ItemPlan, into out: inout [UInt8], failures: inout [ProjectionFailure]) -> Bool {
        write(item, plan: plan, into: &out, failures: &failures)
    }

    /// One member (at `index` in the plan) that reads nothing (or a denied relation); `false`
    /// when its object must be null. `asks`: whether the caller may be denied a field of the
    /// plan's type (asked once an item).
    private func write<Row: StoredRow>(
        _ member: ItemPlan.Member, at index: Int, of row: Row, plan: ItemPlan, asks: Bool,
        into out: inout [UInt8], failures: inout [ProjectionFailure]
    ) -> Bool {
        if asks, let denied = denied(member, of: row.item(), plan: plan, into: &out, failures: &failures) { return denied }
        return write(member.entry, at: index, of: row, plan: plan, into: &out, failures: &failures)
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

    /// One entry (of the member at `index`) other than a relation read from the store; `false`
    /// when its object must be null.
    private func write<Row: StoredRow>(
        _ entry: ItemPlan.Entry, at index: Int, of row: Row, plan: ItemPlan, into out: inout [UInt8], failures: inout [ProjectionFailure]
    ) -> Bool {
        switch entry {
        case .typename(let typeName):
            JSONWriter.writeString(typeName, to: &out)
        case .metadata(_, let required), .stored(_, let required):
            guard !row.writeJSON(at: index, into: &out) else { return true }
            return absent(required, plan: plan, into: &out, failures: &failures)
        case .ownerName(_, let required):
            let value = OwnerName.shown(row.value(at: index) ?? .null)
            guard !value.isNull else { return absent(required, plan: plan, into: &out, failures: &failures) }
            JSONWriter.write(value, to: &out)
        case .value(let field, let subFields):
            guard let map = value(row.value(at: index) ?? .null, of: field, subFields: subFields?.fields, plan: plan, failures: &failures)
            else { return nullable(field, plan: plan, into: &out) }
            ResponseJSON.write(map, to: &out)
        case .relation(let field, let relation, let nested):
            // Only an event's plan writes relations here: the event carries the related object,
            // shown only if the subscriber may read it.
            precondition(!plan.hasRelations, "relations read from the store are written by project(_:plan:into:failures:)")
            guard case .object(let related)? = row.value(at: index) else {
                return missing(field, type: relation.relatedModel, plan: plan, into: &out, failures: &failures)
            }
            let access = caller.related(planner.model(relation.relatedModel), field: field.name, parentType: plan.typeName)
            guard access.admits(related) else {
                failures.append(ProjectionFailure(.failed(access.denial)))
                return nullable(field, plan: plan, into: &out)
            }
            guard write(related, plan: nested, into: &out, failures: &failures) else { return nullable(field, plan: plan, into: &out) }
        case .connection(let field, let connection):
            guard case .object(let carried)? = row.value(at: index) else { return nullable(true, into: &out) }
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

    /// A scalar without a value: `null`, or an error where the field is non-null (`required`:
    /// its GraphQL type) and its object must be null.
    private func absent(_ required: String?, plan: ItemPlan, into out: inout [UInt8], failures: inout [ProjectionFailure]) -> Bool {
        if plan.completes, let required {
            failures.append(ProjectionFailure(.nullInNonNull(type: required, parent: plan.typeName)))
            return false
        }
        return nullable(true, into: &out)
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

    func nullable(_ nullable: Bool, into out: inout [UInt8]) -> Bool {
        if nullable { out.append(contentsOf: "null".utf8) }
        return nullable
    }
}
