import DeltaSyncAuth
import DeltaSyncCore
import DeltaSyncFixture
import DeltaSyncFunctions
import DeltaSyncGraphQL
import DeltaSyncRealtime
import DeltaSyncSQLiteStore
import DeltaSyncSchema
import DeltaSyncStorage
import Foundation
import Logging

// The parts `init` puts together, each made from the configuration and the parts before it.
extension DeltaSyncServer {
    /// The configured store: a SQLite file, SQLite in memory, or a store made by the caller.
    static func openStore(_ storage: ServerConfiguration.Storage, schema: AmplifySchema) throws -> any ItemStore {
        switch storage {
        case .file(let path): return try SQLiteItemStore(location: .file(path), schema: schema)
        case .inMemory: return try SQLiteItemStore(location: .inMemory, schema: schema)
        case .store(let given): return given
        }
    }

    /// The configured modes, the project's, or the API key plus the modes the schema's rules
    /// use; a rule naming a mode the API does not have is refused.
    static func authModes(project: AmplifyProject, configuration: ServerConfiguration) throws -> APIAuthModes {
        let modes = configuration.authModes ?? project.authModes
            ?? APIAuthModes(defaultMode: .apiKey, additionalModes: project.schema.authModesUsed)
        let unconfigured = project.schema.authModesUsed.filter { !modes.contains($0) }
        guard unconfigured.isEmpty else {
            throw AuthModeMismatch(missing: unconfigured, modes: modes)
        }
        return modes
    }

    /// What the resolvers run with: the store, the policy, sync settings, limits, metrics,
    /// faults and functions, with the configured resolvers, data sources and slots resolved.
    static func resolverEnvironment(
        project: AmplifyProject, configuration: ServerConfiguration, store: any ItemStore, policy: AuthorizationPolicy,
        clock now: @escaping @Sendable () -> Date, metrics: ServerMetrics?, faults: FaultList, functions: ServerFunctions,
        logger: Logger
    ) throws -> ResolverEnvironment {
        let sync = SyncSettings(
            deltaTTLMilliseconds: configuration.deltaTTL.milliseconds,
            tombstoneTTLSeconds: Int(configuration.tombstoneTTL.components.seconds),
            handlers: project.sync,
            handlerOverride: configuration.conflictHandler,
            lambda: try configuration.lambdaConflictHandler ?? conflictHandlerFunction(configuration.conflictHandlerFunction, in: functions)
        )
        var environment = ResolverEnvironment(
            schema: project.schema, store: store, policy: policy, tokens: .random(), clock: now, sync: sync,
            logger: logger)
        environment.filterLimits = configuration.filterLimits
        environment.maxPageSize = configuration.maxPageSize
        environment.metrics = metrics
        // Without the fixture API nothing can add a fault: mutations skip the check.
        if configuration.fixtureAPI { environment.faults = faults }
        environment.functions = functions
        environment.jsRuntime = functions.jsRuntime
        environment.environmentName = functions.catalog.environmentName
        environment.region = configuration.region
        try environment.resolve(
            with: configuration.resolvers, dataSources: configuration.dataSources, variables: configuration.resolverEnvironment,
            slots: configuration.slots, overrides: configuration.overrides)
        return environment
    }

    /// The named function as the Lambda conflict handler; `nil` without a name.
    ///
    /// - Throws: ``FunctionCatalogError`` when no configured function has the name.
    static func conflictHandlerFunction(_ name: String?, in functions: ServerFunctions) throws -> LambdaConflictHandler? {
        guard let name else { return nil }
        guard let found = functions.function(named: name) else {
            let known = functions.catalog.entries.keys.sorted()
            throw FunctionCatalogError(
                "The conflict handler function \(name) is not configured: add it to functions.json, pass --function, "
                    + "or use one of the project's functions (\(known.isEmpty ? "none" : known.joined(separator: ", "))).")
        }
        return LambdaConflictHandlers.function(found.function, name: found.name, timeout: found.timeout)
    }

    /// Where mutations' events go: this process's subscribers, and on a store other processes
    /// share, theirs too (the second value, `nil` otherwise).
    static func eventFanOut(
        store: any ItemStore, subscribers: SubscriptionRegistry, logger: Logger
    ) -> (any EventFanOut, SharedEventFanOut?) {
        guard let shared = store as? any SharedItemStore else {
            return (LocalEventFanOut(subscribers: subscribers), nil)
        }
        let fanOut = SharedEventFanOut(subscribers: subscribers, channel: shared.instanceChannel(named: "events"), logger: logger)
        return (fanOut, fanOut)
    }

    /// The realtime endpoint, admitting connections while no fault refuses them and the
    /// connection limits allow.
    static func realtimeEndpoint(
        configuration: ServerConfiguration, authentication: RequestAuthentication, policy: AuthorizationPolicy,
        executor: RequestExecutor, subscribers: SubscriptionRegistry, connections: ConnectionRegistry, faults: FaultList,
        requests: RequestLog, logger: Logger
    ) -> RealtimeEndpoint {
        RealtimeEndpoint(
            configuration: configuration.realtime, authentication: authentication, policy: policy,
            executor: executor, registry: subscribers,
            admit: { channel in
                if faults.refusesConnections {
                    throw RequestRejection(.serviceUnavailable, "New realtime connections are refused for now (a fault added through the fixture API).", errorType: "ServiceUnavailableException")
                }
                try connections.admitWebSocket(channel)
            },
            reportStart: configuration.fixtureAPI ? requests.appendStart : nil,
            logger: logger)
    }
}
