import DeltaSyncCore
import GraphQL

/// A realtime `start`'s subscription as the realtime layer uses it, without GraphQL syntax: the
/// subscription field, the mutations that trigger it, its arguments as JSON and the plan of its
/// events for a caller. ``RequestExecutor/subscription(_:)`` makes it from the validated
/// document, so the realtime target reads no document of its own.
package struct SubscriptionPlan: @unchecked Sendable {
    // The selection's AST nodes are the validated document's, which is only read (as
    // ``PreparedDocument``'s are).
    /// The subscription field (`onCreatePost`).
    package let field: String
    /// The field's response key (its alias, else its name): the key of each event's `data`.
    package let responseKey: String
    /// The mutations whose results are this subscription's events.
    package let mutations: [String]
    /// The field's arguments in document order (`filter` among them), variables substituted; an
    /// argument whose variable the request does not supply is left out, as if not written.
    package let arguments: [(name: String, value: JSONValue)]
    private let selection: GraphQL.Field
    private let fragments: [String: FragmentDefinition]
    private let variables: [String: JSONValue]
    private let schema: ExecutableSchema

    /// The subscription `request` names in `document` (parsed and validated against `schema`).
    ///
    /// - Throws: ``AppSyncError`` when the document does not name one operation to run, the
    ///   operation is not a subscription, it selects other than one field, or the field has no
    ///   triggering mutations.
    init(_ request: OperationRequest, document: Document, schema: ExecutableSchema) throws(AppSyncError) {
        let operations = document.definitions.compactMap { $0 as? OperationDefinition }
        guard
            let operation = request.operationName.flatMap({ name in operations.first { $0.name?.value == name } })
                ?? (operations.count == 1 ? operations.first : nil)
        else {
            throw AppSyncError(.malformedMessage, "Name the operation to run with operationName: the document has \(operations.count).")
        }
        guard operation.operation == .subscription else {
            throw AppSyncError(.unsupportedOperation, "\(operation.operation.rawValue) not supported through the realtime channel")
        }
        let fragments = document.fragmentsByName
        let fields = SelectionFields.included(in: operation.selectionSet, fragments: fragments, variables: request.variables)
        guard fields.count == 1, let selection = fields.first else {
            throw AppSyncError(.validation, "A subscription operation selects exactly one subscription field; this one selects \(fields.count).")
        }
        let name = selection.name.value
        guard let mutations = schema.subscriptionTriggers[name] else {
            throw AppSyncError(.validation, "Subscription field '\(name)' is not in the schema.")
        }
        field = name
        responseKey = selection.alias?.value ?? name
        self.mutations = mutations
        arguments = selection.arguments.compactMap { argument in
            Self.json(argument.value, variables: request.variables).map { (argument.name.value, $0) }
        }
        self.selection = selection
        self.fragments = fragments
        variables = request.variables
        self.schema = schema
    }

    /// How `caller`'s events are written: the field's selection as an ``EventPlan``.
    ///
    /// - Throws: ``AppSyncError`` when the field is not a subscription to mutations or selects
    ///   none of their fields.
    package func eventPlan(for caller: Caller) throws -> EventPlan {
        try EventPlan(selection, fragments: fragments, variables: variables, schema: schema, caller: caller)
    }

    /// An argument's value with variables substituted; `nil` for an unsupplied variable.
    private static func json(_ value: Value, variables: [String: JSONValue]) -> JSONValue? {
        switch value {
        case let variable as Variable: return variables[variable.name.value]
        case let string as StringValue: return .string(string.value)
        case let int as IntValue: return Int(int.value).map(JSONValue.int) ?? .double(Double(int.value) ?? 0)
        case let float as FloatValue: return .double(Double(float.value) ?? 0)
        case let bool as BooleanValue: return .bool(bool.value)
        case let enumValue as EnumValue: return .string(enumValue.value)
        case is NullValue: return .null
        case let list as ListValue: return .array(list.values.map { json($0, variables: variables) ?? .null })
        case let object as ObjectValue:
            var fields: [String: JSONValue] = [:]
            for field in object.fields {
                if let value = json(field.value, variables: variables) { fields[field.name.value] = value }
            }
            return .object(fields)
        default: return nil
        }
    }
}
