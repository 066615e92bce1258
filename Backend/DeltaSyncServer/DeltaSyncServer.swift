import DeltaSyncAuth
import DeltaSyncConsole
import DeltaSyncCore
import DeltaSyncFixture
import DeltaSyncGraphQL
import DeltaSyncRealtime
import DeltaSyncSQLiteStore
import DeltaSyncSchema
import DeltaSyncStorage
import Foundation
import GraphQL
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOSSL
import ServiceLifecycle

/// A local AppSync-compatible backend for an Amplify schema.
///
/// Embed it in tests to get a real server on a free port:
///
/// ```swift
/// var configuration = ServerConfiguration()
/// configuration.port = 0
/// configuration.storage = .inMemory
/// let server = try DeltaSyncServer(project: try .load(schemaFile: "schema.graphql"), configuration: configuration)
/// let running = try await server.start()
/// // POST to running.graphQLURL with header x-api-key: server.apiKey
/// await running.stop()
/// ```
///
/// or use ``application()`` with HummingbirdTesting to test without sockets.
public struct DeltaSyncServer: Sendable {
    public let project: AmplifyProject
    public let configuration: ServerConfiguration
    /// The key clients send as `x-api-key`: the configured one or a generated `da2-...` key.
    public let apiKey: String
    let executor: RequestExecutor
    /// Who a request's credentials name, for every mode the API has.
    let authentication: RequestAuthentication
    /// The API's authorization modes: configured, from the project, or the API key plus the
    /// modes the schema's rules use.
    public var authModes: APIAuthModes { authentication.modes }
    /// The schema's `@auth` rules and the modes' directives: every request's ``Caller`` is judged by them.
    let policy: AuthorizationPolicy
    let developmentIssuer: DevelopmentIssuerSource?
    let realtime: RealtimeEndpoint
    let store: any ItemStore
    /// The events of the other processes on a shared store, and this one's to them; `nil` for
    /// a store of this process alone.
    let sharedEvents: SharedEventFanOut?
    let expiry: ExpiryService
    let connections: ConnectionRegistry
    /// `nil` when ``ServerConfiguration/metrics`` is off.
    let metrics: ServerMetrics?
    /// Reset, seed, snapshots, the clock, faults and what is connected, for tests.
    public let fixture: Fixture
    /// The functions `@function` fields call.
    let functions: ServerFunctions
    /// The key of the fixture API (`x-deltasync-admin-key`): configured or generated; `nil`
    /// when ``ServerConfiguration/fixtureAPI`` is off.
    public let adminKey: String?
    /// ``ServerConfiguration/tls`` read and checked; `nil` serves plain HTTP.
    let tls: TLSConfiguration?
    let logger: Logger

    /// Opens the store and builds the AppSync schema.
    ///
    /// - Throws: ``TLSSettingsError`` when ``ServerConfiguration/tls`` names a file that cannot
    ///   be used, ``StorageError``-style errors from the store (unwritable file, ...), or a
    ///   GraphQL error if the generated schema does not build (a DeltaSync bug).
    public init(project: AmplifyProject, configuration: ServerConfiguration = ServerConfiguration(), logger: Logger? = nil) throws {
        self.project = project
        self.configuration = configuration
        self.apiKey = configuration.apiKey ?? Self.generateAPIKey()
        self.logger = logger ?? Logger(label: "deltasync")
        adminKey = configuration.fixtureAPI ? configuration.adminKey ?? Self.generateAdminKey() : nil
        let clock = FixtureClock(base: configuration.clock)
        let now: @Sendable () -> Date = { clock.now() }
        let faults = FaultList()
        let requests = RequestLog()
        // Before the store is opened: a bad certificate leaves no database behind.
        tls = try configuration.tls?.serverConfiguration()
        let store = try Self.openStore(configuration.storage, schema: project.schema)
        self.store = store
        let modes = try Self.authModes(project: project, configuration: configuration)
        let policy = AuthorizationPolicy(schema: project.schema, modes: modes, fieldRule: configuration.fieldAuthorization)
        self.policy = policy
        let metrics = configuration.metrics ? ServerMetrics() : nil
        self.metrics = metrics
        let functions = try ServerFunctions(
            configuration: configuration, schema: project.schema, schemaFiles: project.schemaFiles, logger: self.logger)
        self.functions = functions
        let environment = try Self.resolverEnvironment(
            project: project, configuration: configuration, store: store, policy: policy, clock: now, metrics: metrics,
            faults: faults, functions: functions, logger: self.logger)
        let issuer = configuration.acceptsDevelopmentTokens ? DevelopmentIssuerSource(directory: configuration.dataDirectory) : nil
        developmentIssuer = issuer
        authentication = Self.authentication(modes: modes, apiKey: apiKey, issuer: issuer, clock: now, configuration: configuration)
        for mode in authentication.unconfiguredModes {
            self.logger.warning(
                "the API has \(mode.rawValue) but nothing to check its credentials with, so every such request is refused",
                metadata: ["fix": "\(Self.howToConfigure(mode))"])
        }
        let subscribers = SubscriptionRegistry(maxEventBytes: configuration.realtime.maxEventBytes, logger: self.logger)
        let (events, sharedEvents) = Self.eventFanOut(store: store, subscribers: subscribers, logger: self.logger)
        self.sharedEvents = sharedEvents
        let executor = RequestExecutor(
            schema: try ExecutableSchema(schema: project.schema, environment: environment),
            events: events, logger: self.logger, limits: configuration.documentLimits,
            executionLimits: configuration.executionLimits)
        self.executor = executor
        let connections = ConnectionRegistry(configuration: configuration.connections)
        self.connections = connections
        realtime = Self.realtimeEndpoint(
            configuration: configuration, authentication: authentication, policy: policy, executor: executor,
            subscribers: subscribers, connections: connections, faults: faults, requests: requests, logger: self.logger)
        expiry = ExpiryService(
            store: store, deltaTTL: configuration.deltaTTL, interval: configuration.purgeInterval,
            clock: now, logger: self.logger)
        fixture = Fixture(
            clock: clock, store: store, schema: project.schema, tombstoneTTL: Int(configuration.tombstoneTTL.components.seconds),
            host: ServerFixtureHost(executor: executor, policy: policy, expiry: expiry),
            connections: RealtimeFixtureConnections(connections: realtime.connections), faults: faults, requests: requests)
    }

    /// The functions the schema's `@function` fields name that nothing is configured to run,
    /// as the schema writes them: each such field answers AppSync's error for a failed
    /// invocation. `deltasync serve` lists them at start.
    public var unconfiguredFunctions: [String] { functions.catalog.unconfigured(functions.referenced) }

    /// One line per configured function the schema uses: `calc-${env} → node amplify/backend/function/calc/src (index.handler)`.
    public var functionDescriptions: [String] {
        functions.referenced.compactMap { name in functions.catalog.function(named: name).map { "\(name) → \($0.summary)" } }
    }

    /// Executes one GraphQL request in-process for `principal`, as `POST /graphql` would once
    /// its credentials named that caller, and returns the JSON response body. The schema's
    /// `@auth` rules apply to every principal but ``Principal/trusted``.
    ///
    /// ```swift
    /// let body = await server.execute(OperationRequest(query: "{ listPosts { items { id } } }"), as: .apiKey)
    /// ```
    ///
    /// - Parameter explain: include `extensions.deltasync.plans` (as `x-deltasync-explain: 1`).
    public func execute(_ request: OperationRequest, as principal: Principal, explain: Bool = false) async -> [UInt8] {
        await executor.execute(request, as: Caller(principal, policy: policy), explain: explain)
    }

    /// How many connections the server holds at once (``ConnectionConfiguration/maxConnections``,
    /// or the open-file limit less ``ConnectionConfiguration/reservedDescriptors``); the next one
    /// closes the longest-idle HTTP connection, or is closed itself.
    public var connectionCapacity: Int { connections.capacity }

    /// The store the server reads and writes (for seeding fixtures and inspecting state).
    public var itemStore: any ItemStore { store }

    /// Purges expired delta log entries and tombstones now, as the background service does
    /// every ``ServerConfiguration/purgeInterval``.
    public func purgeExpired() async {
        await expiry.purgeOnce()
    }

    /// The AppSync SDL the server executes.
    public var appSyncSDL: String { executor.schema.sdl }

    /// `dsa-` and 32 random characters.
    static func generateAdminKey() -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        var generator = SystemRandomNumberGenerator()
        return "dsa-" + String((0..<32).map { _ in alphabet.randomElement(using: &generator)! })
    }

    static func generateAPIKey() -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        return "da2-" + String((0..<26).map { _ in alphabet.randomElement()! })
    }
}
