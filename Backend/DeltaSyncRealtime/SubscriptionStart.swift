import DeltaSyncCore
import DeltaSyncGraphQL
import GraphQL
import NIOConcurrencyHelpers

/// Turns a `start` message into a ``Subscription``: authorization, the request, validation
/// against the schema, the triggering mutations, filters and the event plan.
struct SubscriptionStart: Sendable {
    let executor: RequestExecutor
    let apiKey: String
    let eventPlans = EventPlanCache()

    /// - Returns: the subscription, or the errors for the `error` message (AppSync's shapes).
    func subscription(id: String, data: String, extensions: JSONValue, outbox: RealtimeOutbox) -> Result<Subscription, ResponseErrors> {
        do {
            try authorize(extensions["authorization"])
            guard case .object(let body)? = try? JSONValue(parsing: data) else {
                throw AppSyncError(.malformedMessage, "payload.data must be a JSON object with the GraphQL query.")
            }
            let request = try OperationRequest(body: .object(body))
            let document: Document
            switch executor.document(request.query) {
            case .success(let parsed): document = parsed
            case .failure(let failure): return .failure(failure)
            }
            return .success(try subscription(id: id, request: request, document: document, outbox: outbox))
        } catch {
            let shown = AppSyncError.redacting(error, at: "subscription \(id)", logger: executor.logger)
            return .failure(ResponseErrors(errors: [ErrorShape.plain(shown)]))
        }
    }

    private func authorize(_ authorization: JSONValue) throws(AppSyncError) {
        guard !authorization.isNull else {
            throw AppSyncError(.unauthorized, "Valid authorization header not provided: send extensions.authorization with the start message.")
        }
        guard try RealtimeAuthorization(extensions: authorization).apiKey == apiKey else {
            throw AppSyncError(.unauthorized, "You are not authorized to make this call.")
        }
    }

    private func subscription(id: String, request: OperationRequest, document: Document, outbox: RealtimeOutbox) throws
        -> Subscription
    {
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
        guard fields.count == 1, let field = fields.first else {
            throw AppSyncError(.validation, "A subscription operation selects exactly one subscription field; this one selects \(fields.count).")
        }
        let name = field.name.value
        guard let mutations = executor.schema.subscriptionTriggers[name] else {
            throw AppSyncError(.validation, "Subscription field '\(name)' is not in the schema.")
        }

        var filter = QueryPredicate.all
        var argumentFilters: [(field: String, value: JSONValue)] = []
        for argument in field.arguments {
            let value = Self.json(argument.value, variables: request.variables)
            guard let value else { continue }  // an unsupplied variable: the argument is omitted
            if argument.name.value == "filter" {
                try SubscriptionFilterLimits.check(value)
                do {
                    filter = try QueryPredicate(filter: value)
                } catch {
                    throw AppSyncError(.filterValidation, "The subscription filter is not valid: \(error)")
                }
            } else {
                argumentFilters.append((argument.name.value, value))
            }
        }

        let eventPlan = try eventPlans.plan(request: request, key: field.alias?.value ?? name) {
            try EventPlan(field, fragments: fragments, variables: request.variables, schema: executor.schema)
        }
        return Subscription(
            id: id, outbox: outbox, mutations: mutations, eventPlan: eventPlan, filter: filter, argumentFilters: argumentFilters)
    }

    /// An argument's value with variables substituted; `nil` for an unsupplied variable.
    static func json(_ value: Value, variables: [String: JSONValue]) -> JSONValue? {
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

/// Event plans by request, so identical subscriptions share one and an event is written once
/// for all of them. Bounded like the document cache.
final class EventPlanCache: Sendable {
    private struct Key: Hashable {
        let query: String
        let operationName: String?
        let variables: String
        let rootKey: String
    }

    private let plans = NIOLockedValueBox<[Key: EventPlan]>([:])
    private let capacity = 1024

    func plan(request: OperationRequest, key rootKey: String, make: () throws -> EventPlan) throws -> EventPlan {
        let key = Key(
            query: request.query, operationName: request.operationName,
            variables: JSONValue.object(request.variables).jsonText, rootKey: rootKey)
        if let plan = plans.withLockedValue({ $0[key] }) { return plan }
        let plan = try make()
        return plans.withLockedValue { plans in
            if plans.count >= capacity { plans.removeAll(keepingCapacity: true) }
            if let existing = plans[key] { return existing }
            plans[key] = plan
            return plan
        }
    }
}
