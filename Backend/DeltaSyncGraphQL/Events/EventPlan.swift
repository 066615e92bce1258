import DeltaSyncCore
import DeltaSyncSchema
import GraphQL

/// How a subscription's events are written, planned once when it starts: the subscription's
/// selection as an ``ItemPlan`` (``ItemPlan/Purpose/event(variables:)``) that
/// ``ItemProjection`` writes each event's data along, like any response. Fields the mutation
/// did not select are null; a null in a non-null field nulls its parent and adds AppSync's
/// error.
///
/// Subscriptions with the same query text and variables share one plan, so an event is
/// written once per distinct selection, however many subscribers it reaches.
package final class EventPlan: Sendable {
    /// The subscription field's response key.
    let rootKey: String
    private let shape: Shape

    /// A model's items are written by the projection (its types, its field authorization);
    /// another type's values (a custom mutation's result) along the plain selection.
    private enum Shape: Sendable {
        case item(ItemPlan, ItemProjection)
        case value(ValueSelection)
    }

    /// Plans the subscription field `field` of a validated document.
    ///
    /// - Throws: ``AppSyncError`` when the field is not a subscription to mutations.
    package init(
        _ field: GraphQL.Field, fragments: [String: FragmentDefinition], variables: [String: JSONValue], schema: ExecutableSchema,
        caller: Caller
    ) throws {
        let name = field.name.value
        guard let definition = (try? schema.graphQL.subscriptionType?.fields())?[name],
            let typeName = (namedType(of: definition.type) as? GraphQLNamedType)?.name
        else {
            throw AppSyncError(.validation, "Subscription field '\(name)' is not a subscription to mutations.")
        }
        guard let selection = field.selectionSet else {
            throw AppSyncError(.validation, "Subscription field '\(name)' needs a selection of its fields.")
        }
        rootKey = field.alias?.value ?? name
        guard let model = schema.planner.schema.model(named: typeName) else {
            shape = .value(ValueSelection([selection], type: definition.type, fragments: fragments, variables: variables))
            return
        }
        guard let plan = schema.planner.plan(model, selection: [selection], fragments: fragments, purpose: .event(variables: variables))
        else {
            throw AppSyncError(.validation, "Subscription field '\(name)' needs a selection of its fields.")
        }
        shape = .item(plan, schema.planner.projection(for: caller))
    }

    /// `{"data":{"<rootKey>":...}}`, plus `errors` when a non-null field had no value.
    package func payload(for data: JSONValue) -> [UInt8] {
        var out = Array(#"{"data":{"#.utf8)
        JSONWriter.writeString(rootKey, to: &out)
        out.append(UInt8(ascii: ":"))
        var failures: [ProjectionFailure] = []
        switch (shape, data) {
        case (.item(let plan, let projection), .object(let item)):
            if !projection.writeEvent(item, plan: plan, into: &out, failures: &failures) {
                out.append(contentsOf: "null".utf8)
            }
        case (.value(let selection), _):
            selection.write(data, to: &out)
        default:
            out.append(contentsOf: "null".utf8)
        }
        out.append(UInt8(ascii: "}"))
        if !failures.isEmpty {
            out.append(contentsOf: #","errors":"#.utf8)
            let path = ResponsePath([.key(rootKey)])
            ResponseJSON.write(.array(failures.map { $0.error(under: path) }), to: &out)
        }
        out.append(UInt8(ascii: "}"))
        return out
    }
}
