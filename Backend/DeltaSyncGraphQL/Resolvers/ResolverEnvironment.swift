import DeltaSyncCore
import DeltaSyncJSRuntime
import DeltaSyncSchema
import DeltaSyncStorage
import Foundation
import GraphQL
import Logging

/// What every resolver reads: the schema, the store, the token codec, the clock and the sync
/// settings.
package struct ResolverEnvironment: Sendable {
    let schema: AmplifySchema
    let store: any ItemStore
    let tokens: PageTokenCodec
    let clock: @Sendable () -> Date
    let sync: SyncSettings
    let logger: Logger
    /// How large a filter or condition input may be.
    package var filterLimits = FilterLimits()
    /// The most items one page of a list, index or sync query returns, whatever `limit` asks
    /// (DynamoDB stops a page at 1 MB); the rest follows through `nextToken`.
    package var maxPageSize = 1000
    /// The schema's `@auth` rules, the API's modes and any field rule of the embedder's: what
    /// every request's ``Caller`` is judged by.
    package let policy: AuthorizationPolicy
    /// Failures the fixture API injects into mutations; `nil` runs every mutation normally.
    package var faults: (any MutationFaults)?
    /// Conflicts and sync pages counted for the server's metrics; `nil` counts nothing.
    package var metrics: (any SyncMetrics)?
    /// The functions `@function` fields call; `nil` answers every such field with the error of
    /// a function nobody configured.
    package var functions: (any FunctionDirectory)?
    /// The warm `node` workers APPSYNC_JS resolvers and functions run in, which the server
    /// shuts down; required when the project has any.
    package var jsRuntime: AppSyncJSRuntime?
    /// Fields the project resolves with its own unit or pipeline resolvers (templates over data
    /// sources), in place of what the schema generates for them; every other field keeps
    /// DeltaSync's generated resolver.
    var fieldResolvers: [FieldCoordinate: FieldResolver] = [:]
    /// Generated fields whose pipelines hold the project's slot functions or overrides.
    var slotPlans: [FieldCoordinate: SlotPlan] = [:]
    /// `$ctx.env` of those resolvers.
    var resolverVariables: [String: String] = [:]
    /// The Amplify environment (`${env}` in `@http` URLs); `NONE` outside an Amplify project.
    package var environmentName = "NONE"
    /// `${aws_region}` in `@http` URLs.
    package var region = "us-east-1"

    package init(
        schema: AmplifySchema, store: any ItemStore, policy: AuthorizationPolicy, tokens: PageTokenCodec,
        clock: @escaping @Sendable () -> Date, sync: SyncSettings, logger: Logger
    ) {
        self.schema = schema
        self.policy = policy
        self.store = store
        self.tokens = tokens
        self.clock = clock
        self.sync = sync
        self.logger = logger
    }

    /// The filter or condition input `value` as a predicate, within ``filterLimits``.
    func predicate(_ value: JSONValue?) throws -> QueryPredicate {
        try QueryPredicate(filter: value ?? .null, limits: filterLimits)
    }

    /// Now in epoch milliseconds, the unit of `_lastChangedAt` and `startedAt`.
    /// Rounded, not truncated: `Date` holds seconds as a double, and truncating turns
    /// 1_700_000_030.001 s into ...030_000 ms.
    var nowMilliseconds: Int { Int((clock().timeIntervalSince1970 * 1000).rounded()) }

    func model(_ name: String) -> ModelSchema {
        guard let model = schema.model(named: name) else {
            preconditionFailure("resolver wired for unknown model \(name)")
        }
        return model
    }
}

/// The versioned data source's settings, resolved from the project and the server flags.
package struct SyncSettings: Sendable {
    var deltaTTLMilliseconds: Int
    var tombstoneTTLSeconds: Int
    var handlers: SyncConfiguration
    /// Replaces every model's handler when set (`--conflict-handler`).
    var handlerOverride: ConflictHandlerKind?
    var lambda: LambdaConflictHandler?

    package init(
        deltaTTLMilliseconds: Int, tombstoneTTLSeconds: Int, handlers: SyncConfiguration,
        handlerOverride: ConflictHandlerKind?, lambda: LambdaConflictHandler?
    ) {
        self.deltaTTLMilliseconds = deltaTTLMilliseconds
        self.tombstoneTTLSeconds = tombstoneTTLSeconds
        self.handlers = handlers
        self.handlerOverride = handlerOverride
        self.lambda = lambda
    }

    func handler(for model: ModelSchema) -> ConflictHandlerKind {
        handlerOverride ?? handlers.handler(for: model.name)
    }
}

extension Duration {
    package var milliseconds: Int {
        Int(components.seconds) * 1000 + Int(components.attoseconds / 1_000_000_000_000_000)
    }
}
