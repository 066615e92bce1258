import DeltaSyncAuth
import DeltaSyncCore
import DeltaSyncGraphQL
import GraphQL
import NIOConcurrencyHelpers

/// A realtime `start` as the request log records it.
package struct StartReport: Sendable {
    /// The subscription field (`onCreatePost`); `nil` when the start failed before it was known.
    package var field: String?
    /// `nil` when the credentials were refused.
    package var identity: Identity?
    /// Empty when the subscription started.
    package var errorTypes: [String]
    package var duration: Duration
}

/// Turns a `start` message into a ``Subscription``: authorization, the request, validation
/// against the schema, the triggering mutations, filters and the event plan.
struct SubscriptionStart: Sendable {
    let executor: RequestExecutor
    /// Authenticates each start's `extensions.authorization`, which may use another mode than
    /// the connection's.
    let authentication: RequestAuthentication
    /// The schema's rules, which each start's caller is judged by.
    let policy: AuthorizationPolicy
    let eventPlans = EventPlanCache()
    /// Told of every start and how it ended (the fixture API's request log); `nil` tells no one.
    var report: (@Sendable (StartReport) -> Void)?

    /// - Returns: the subscription, or the errors for the `error` message (AppSync's shapes).
    func subscription(
        id: String, data: String, extensions: JSONValue, outbox: RealtimeOutbox
    ) async -> Result<Subscription, ResponseErrors> {
        let started = ContinuousClock.now
        var identity: Identity?
        let result: Result<Subscription, ResponseErrors>
        do {
            let caller: Caller
            (identity, caller) = try await authorize(extensions["authorization"], data: data)
            guard case .object(let body)? = try? JSONValue(parsing: data) else {
                throw AppSyncError(.malformedMessage, "payload.data must be a JSON object with the GraphQL query.")
            }
            let request = try OperationRequest(body: .object(body))
            switch executor.document(request.query) {
            case .success(let document):
                result = .success(try subscription(id: id, request: request, document: document, outbox: outbox, caller: caller))
            case .failure(let failure):
                result = .failure(failure)
            }
        } catch {
            let shown = AppSyncError.redacting(error, at: "subscription \(id)", logger: executor.logger)
            result = .failure(ResponseErrors(errors: [ErrorShape.plain(shown)]))
        }
        if let report {
            var errorTypes: [String] = []
            if case .failure(let failure) = result {
                for case .dictionary(let error) in failure.errors {
                    if case .string(let type)? = error["errorType"] { errorTypes.append(type) }
                }
                // Validation errors carry a message alone, as AppSync's do.
                if errorTypes.isEmpty { errorTypes = ["error"] }
            }
            let field = (try? result.get())?.field
            report(StartReport(field: field, identity: identity, errorTypes: errorTypes, duration: ContinuousClock.now - started))
        }
        return result
    }

    /// Who sent a start, and their ``Caller``.
    private func authorize(_ authorization: JSONValue, data: String) async throws(AppSyncError) -> (Identity, Caller) {
        guard !authorization.isNull else {
            throw AppSyncError(.unauthorized, "Valid authorization header not provided: send extensions.authorization with the start message.")
        }
        let headers = try RealtimeAuthorization(extensions: authorization).headers
        let identity: Identity
        do {
            // The start's data is what SigV4 signs and what a Lambda authorizer is shown.
            identity = try await authentication.authenticate(
                Credentials(headers: headers, path: "/graphql", body: Array(data.utf8)))
        } catch {
            throw error.error
        }
        return (identity, Caller(.identity(identity), policy: policy))
    }

    private func subscription(
        id: String, request: OperationRequest, document: Document, outbox: RealtimeOutbox, caller: Caller
    ) throws -> Subscription {
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

        let restriction: ItemRestriction?
        (argumentFilters, restriction) = try caller.subscription(name, filter: filter, arguments: argumentFilters)
        // Plans are shared only by callers who read the same fields and related items.
        let reader = caller.mayDenyFields(ofSubscription: name) ? caller.identity : nil
        let eventPlan = try eventPlans.plan(request: request, key: field.alias?.value ?? name, reader: reader) {
            try EventPlan(field, fragments: fragments, variables: request.variables, schema: executor.schema, caller: caller)
        }
        return Subscription(
            id: id, field: name, outbox: outbox, mutations: mutations, eventPlan: eventPlan, filter: filter, argumentFilters: argumentFilters,
            restriction: restriction)
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
        /// The subscriber, when what they may read differs from others.
        let reader: Identity?
    }

    private let plans = NIOLockedValueBox<[Key: EventPlan]>([:])
    private let capacity = 1024

    func plan(request: OperationRequest, key rootKey: String, reader: Identity?, make: () throws -> EventPlan) throws -> EventPlan {
        let key = Key(
            query: request.query, operationName: request.operationName,
            variables: JSONValue.object(request.variables).jsonText, rootKey: rootKey, reader: reader)
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
