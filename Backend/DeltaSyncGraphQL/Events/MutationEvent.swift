import DeltaSyncCore
import DeltaSyncSchema
import GraphQL

/// What a completed mutation tells subscribers: the mutation's result restricted to what the
/// mutation selected, keyed by field name (aliases undone), so each subscription can shape it
/// to its own selection.
package struct MutationEvent: Sendable, Equatable {
    /// The mutation field (`createPost`), matched against `@aws_subscribe(mutations:)`.
    package let mutation: String
    /// The result object, or `.null` when the mutation returned none.
    package let data: JSONValue
    /// `Post#p1`-style identity of the item, when the mutation selected its key fields.
    package let itemKey: String?
    /// The item's `_version`, when selected.
    package let version: Int?

    package init(mutation: String, data: JSONValue, itemKey: String?, version: Int?) {
        self.mutation = mutation
        self.data = data
        self.itemKey = itemKey
        self.version = version
    }
}

/// Carries mutation events from the server process that ran the mutation to the subscribers.
///
/// ``LocalEventFanOut`` delivers within one process. A shared store (PostgreSQL, when several
/// server processes serve one API) implements it by publishing to every process, each of which
/// hands what it receives to its own ``SubscriptionRegistry/deliver(_:)``.
package protocol EventFanOut: Sendable {
    /// Whether anyone may want events of `mutation`: mutations nobody subscribes to skip
    /// building events. A fan-out to other processes answers `true`.
    func hasSubscribers(for mutation: String) -> Bool
    /// Must return quickly: subscribers never slow mutations down.
    func publish(_ event: MutationEvent)
}

extension MutationEvent {
    /// The sync metadata an event of an API without conflict detection carries beside what
    /// the mutation selected.
    static let metadataFields: Set<String> = ["_version", "_deleted", "_lastChangedAt"]

    /// The events of an executed mutation operation: one per root field that returned an
    /// object. A field that failed (`null` with an error) triggers nothing. `written` holds,
    /// by response key, sync metadata to add where the mutation could not select it (an API
    /// without conflict detection): subscribers of a versioned API on the same store get a
    /// plain write's `_version`, and a plain delete as `_deleted: true`.
    static func events(
        of operation: OperationDefinition, data: Map?, written: [String: Item] = [:], fragments: [String: FragmentDefinition],
        variables: [String: JSONValue], schema: AmplifySchema, mutationType: GraphQLObjectType?,
        wanted: (String) -> Bool
    ) -> [MutationEvent] {
        guard operation.operation == .mutation, case .dictionary(let results)? = data else { return [] }
        var events: [MutationEvent] = []
        for field in SelectionFields.included(in: operation.selectionSet, fragments: fragments, variables: variables) {
            let name = field.name.value
            guard wanted(name), let result = results[field.alias?.value ?? name], case .dictionary = result else { continue }
            var value = byFieldName(result, selection: field.selectionSet, fragments: fragments, variables: variables)
            if let metadata = written[field.alias?.value ?? name], case .object(var object) = value {
                for (key, metadataValue) in metadata where object[key] == nil { object[key] = metadataValue }
                value = .object(object)
            }
            var itemKey: String?
            if let typeName = ((try? mutationType?.fields())?[name]?.type).flatMap({ (namedType(of: $0) as? GraphQLNamedType)?.name }),
                let model = schema.model(named: typeName)
            {
                let keyValues = model.primaryKey.fields.map { value[$0] }
                if !keyValues.contains(.null) {
                    itemKey = typeName + "#" + keyValues.map(\.jsonText).joined(separator: "#")
                }
            }
            events.append(MutationEvent(mutation: name, data: value, itemKey: itemKey, version: value["_version"].intValue))
        }
        return events
    }

    /// A result object keyed by field name instead of response key.
    private static func byFieldName(
        _ map: Map, selection: SelectionSet?, fragments: [String: FragmentDefinition], variables: [String: JSONValue]
    ) -> JSONValue {
        switch map {
        case .dictionary(let object):
            guard let selection else { return JSONValue(map) }
            var out: [String: JSONValue] = [:]
            for field in SelectionFields.included(in: selection, fragments: fragments, variables: variables)
            where field.name.value != "__typename" {
                guard let value = object[field.alias?.value ?? field.name.value] else { continue }
                out[field.name.value] = byFieldName(value, selection: field.selectionSet, fragments: fragments, variables: variables)
            }
            return .object(out)
        case .array(let elements):
            return .array(elements.map { byFieldName($0, selection: selection, fragments: fragments, variables: variables) })
        default:
            return JSONValue(map)
        }
    }
}
