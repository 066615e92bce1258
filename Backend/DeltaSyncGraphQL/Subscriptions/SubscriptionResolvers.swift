import DeltaSyncCore
import DeltaSyncVTL
import Foundation
import Logging

/// The project's resolvers of subscription fields, run when a subscription starts, as AppSync
/// runs a subscription field's resolver: a custom resolver of the field, or slot functions
/// (`init` ... `preSubscribe`) around the generated field's step, which answers `null`. An
/// error the resolver raises (`$util.unauthorized()`, `$util.error(...)`) refuses the start
/// with it; `$extensions.setSubscriptionFilter` narrows the events the subscriber receives.
///
/// They run after DeltaSync's own checks of the caller (the field's `@auth` rules), so a
/// resolver can refuse or narrow a subscription, never widen it.
struct SubscriptionResolvers: Sendable {
    /// By subscription field name.
    let resolvers: [String: FieldResolver]
    let variables: [String: String]
    let logger: Logger
    let clock: @Sendable () -> Date

    var isEmpty: Bool { resolvers.isEmpty }

    /// Runs `field`'s resolver for `caller` with the subscription's `arguments`.
    ///
    /// - Returns: the events filter the resolver set, or `nil` when it set none (or the field
    ///   has no resolver of the project's).
    /// - Throws: ``AppSyncError``: what the resolver raised, or `FilterValidationError` for a
    ///   filter DeltaSync cannot apply.
    func start(field: String, arguments: [(name: String, value: JSONValue)], caller: Caller) async throws(AppSyncError) -> QueryPredicate? {
        guard let resolver = resolvers[field] else { return nil }
        var values: Item = [:]
        for (name, value) in arguments { values[name] = value }
        var context = ResolverContext(field: FieldCoordinate(type: "Subscription", field: field), arguments: values)
        let request = ResolverRequest(caller: caller.identity)
        context.identity = request.identity
        context.request = request.json
        context.environment = variables
        let logger = logger, coordinate = "Subscription.\(field)"
        context.runtime = VTLRuntime(
            authType: ResolverContext.authType(caller.identity?.mode),
            log: { line in logger.info("\(line.message)", metadata: ["field": "\(coordinate)", "level": "\(line.level.rawValue)"]) },
            clock: clock)
        _ = try await resolver.resolve(&context)
        guard let set = context.extensions.last(where: { $0.name == "setSubscriptionFilter" }) else { return nil }
        return try SubscriptionFilterGroups.predicate(set.value)
    }
}
