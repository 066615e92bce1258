import DeltaSyncAuth
import DeltaSyncCore
import DeltaSyncGraphQL
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

/// Turns a `start` message into a ``Subscription``: authorization, the request, its
/// ``SubscriptionPlan`` (validation against the schema and the triggering mutations, by the
/// GraphQL layer), filters and the event plan.
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
            switch executor.subscription(request) {
            case .success(let plan):
                let subscription = try subscription(id: id, request: request, plan: plan, outbox: outbox, caller: caller)
                // The project's resolver runs after DeltaSync's checks: it may refuse or narrow.
                let narrowing = try await executor.startResolver(of: plan, caller: caller)
                result = .success(narrowing.map(subscription.narrowed(by:)) ?? subscription)
            case .failure(let failure):
                result = .failure(failure)
            }
        } catch {
            let shown = AppSyncError.redacting(error, at: "subscription \(id)", logger: executor.logger)
            result = .failure(ResponseErrors(shown))
        }
        if let report {
            var errorTypes: [String] = []
            if case .failure(let failure) = result {
                errorTypes = failure.errorTypes
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
        id: String, request: OperationRequest, plan: SubscriptionPlan, outbox: RealtimeOutbox, caller: Caller
    ) throws -> Subscription {
        var filter = QueryPredicate.all
        var argumentFilters: [(field: String, value: JSONValue)] = []
        for (argument, value) in plan.arguments {
            if argument == "filter" {
                try SubscriptionFilterLimits.check(value)
                do {
                    filter = try QueryPredicate(filter: value)
                } catch {
                    throw AppSyncError(.filterValidation, "The subscription filter is not valid: \(error)")
                }
            } else {
                argumentFilters.append((argument, value))
            }
        }

        let restriction: ItemRestriction?
        (argumentFilters, restriction) = try caller.subscription(plan.field, filter: filter, arguments: argumentFilters)
        // Plans are shared only by callers who read the same fields and related items.
        let reader = caller.mayDenyFields(ofSubscription: plan.field) ? caller.identity : nil
        let eventPlan = try eventPlans.plan(request: request, key: plan.responseKey, reader: reader) {
            try plan.eventPlan(for: caller)
        }
        return Subscription(
            id: id, field: plan.field, outbox: outbox, mutations: plan.mutations, eventPlan: eventPlan, filter: filter,
            argumentFilters: argumentFilters, restriction: restriction)
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
