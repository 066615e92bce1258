import DeltaSyncAuth
import DeltaSyncConsole
import DeltaSyncCore
import DeltaSyncGraphQL
import DeltaSyncRealtime
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
        let store: any ItemStore
        switch configuration.storage {
        case .file(let path): store = try SQLiteItemStore(location: .file(path), schema: project.schema)
        case .inMemory: store = try SQLiteItemStore(location: .inMemory, schema: project.schema)
        case .store(let given): store = given
        }
        self.store = store
        let sync = SyncSettings(
            deltaTTLMilliseconds: configuration.deltaTTL.milliseconds,
            tombstoneTTLSeconds: Int(configuration.tombstoneTTL.components.seconds),
            handlers: project.sync,
            handlerOverride: configuration.conflictHandler,
            lambda: configuration.lambdaConflictHandler
        )
        let modes = configuration.authModes ?? project.authModes
            ?? APIAuthModes(defaultMode: .apiKey, additionalModes: project.schema.authModesUsed)
        let unconfigured = project.schema.authModesUsed.filter { !modes.contains($0) }
        guard unconfigured.isEmpty else {
            throw AuthModeMismatch(missing: unconfigured, modes: modes)
        }
        let policy = AuthorizationPolicy(schema: project.schema, modes: modes, fieldRule: configuration.fieldAuthorization)
        self.policy = policy
        var environment = ResolverEnvironment(
            schema: project.schema, store: store, policy: policy, tokens: .random(), clock: now, sync: sync,
            logger: self.logger)
        environment.filterLimits = configuration.filterLimits
        environment.maxPageSize = configuration.maxPageSize
        let metrics = configuration.metrics ? ServerMetrics() : nil
        self.metrics = metrics
        environment.metrics = metrics
        // Without the fixture API nothing can add a fault: mutations skip the check.
        if configuration.fixtureAPI { environment.faults = faults }
        let functions = try ServerFunctions(
            configuration: configuration, schema: project.schema, schemaFiles: project.schemaFiles, logger: self.logger)
        self.functions = functions
        environment.functions = functions
        environment.environmentName = functions.catalog.environmentName
        environment.region = configuration.region
        try environment.resolve(
            with: configuration.resolvers, dataSources: configuration.dataSources, variables: configuration.resolverEnvironment)
        let issuer = configuration.acceptsDevelopmentTokens ? DevelopmentIssuerSource(directory: configuration.dataDirectory) : nil
        developmentIssuer = issuer
        authentication = Self.authentication(modes: modes, apiKey: apiKey, issuer: issuer, clock: now, configuration: configuration)
        for mode in authentication.unconfiguredModes {
            self.logger.warning(
                "the API has \(mode.rawValue) but nothing to check its credentials with, so every such request is refused",
                metadata: ["fix": "\(Self.howToConfigure(mode))"])
        }
        let subscribers = SubscriptionRegistry(maxEventBytes: configuration.realtime.maxEventBytes, logger: self.logger)
        // A store other processes share carries each one's events to the others' subscribers.
        let events: any EventFanOut
        if let shared = store as? any SharedItemStore {
            let fanOut = SharedEventFanOut(subscribers: subscribers, channel: shared.instanceChannel(named: "events"), logger: self.logger)
            sharedEvents = fanOut
            events = fanOut
        } else {
            sharedEvents = nil
            events = LocalEventFanOut(subscribers: subscribers)
        }
        let executor = RequestExecutor(
            schema: try ExecutableSchema(schema: project.schema, environment: environment),
            events: events, logger: self.logger, limits: configuration.documentLimits,
            executionLimits: configuration.executionLimits)
        self.executor = executor
        let connections = ConnectionRegistry(configuration: configuration.connections)
        self.connections = connections
        realtime = RealtimeEndpoint(
            configuration: configuration.realtime, authentication: authentication, policy: policy,
            executor: executor, registry: subscribers,
            admit: { channel in
                if faults.refusesConnections {
                    throw RequestRejection(.serviceUnavailable, "New realtime connections are refused for now (a fault added through the fixture API).", errorType: "ServiceUnavailableException")
                }
                try connections.admitWebSocket(channel)
            },
            reportStart: configuration.fixtureAPI ? requests.appendStart : nil,
            logger: self.logger)
        expiry = ExpiryService(
            store: store, deltaTTL: configuration.deltaTTL, interval: configuration.purgeInterval,
            clock: now, logger: self.logger)
        fixture = Fixture(
            clock: clock, store: store, schema: project.schema, tombstoneTTL: Int(configuration.tombstoneTTL.components.seconds), executor: executor, policy: policy,
            expiry: expiry, connections: realtime.connections, faults: faults, requests: requests)
    }

    /// The functions the schema's `@function` fields name that nothing is configured to run,
    /// as the schema writes them: each such field answers AppSync's error for a failed
    /// invocation. `deltasync serve` lists them at start.
    public var unconfiguredFunctions: [String] { functions.catalog.unconfigured(functions.referenced) }

    /// One line per configured function the schema uses: `calc-${env} → node amplify/backend/function/calc/src (index.handler)`.
    public var functionDescriptions: [String] {
        functions.referenced.compactMap { name in functions.catalog.function(named: name).map { "\(name) → \($0.summary)" } }
    }

    /// What configures a mode's checks, for the warning about a mode without them.
    private static func howToConfigure(_ mode: AuthMode) -> String {
        switch mode {
        case .apiKey: return "--api-key"
        case .userPools: return "--user-pool-id with --jwks, or leave development tokens on"
        case .oidc: return "--oidc-issuer, or leave development tokens on"
        case .lambda: return "--lambda-authorizer-url"
        case .iam: return "--iam-credentials"
        }
    }

    /// One authenticator per mode: API keys (``apiKey`` and ``ServerConfiguration/apiKeys``),
    /// the configured token providers, the development issuer for user pools and OIDC, and
    /// ``ServerConfiguration/authenticators``.
    private static func authentication(
        modes: APIAuthModes, apiKey: String, issuer: DevelopmentIssuerSource?, clock: @escaping @Sendable () -> Date,
        configuration: ServerConfiguration
    ) -> RequestAuthentication {
        var authenticators = configuration.authenticators
        authenticators.append(APIKeyAuthenticator(keys: [APIKey(apiKey)] + configuration.apiKeys, clock: clock))
        for provider in configuration.tokenProviders {
            authenticators.append(TokenAuthenticator(
                verification: provider.verification, loadingKeys: { try await provider.keys.keys() }, clock: clock))
        }
        if !configuration.iamCredentials.isEmpty {
            authenticators.append(SigV4Authenticator(credentials: configuration.iamCredentials, region: configuration.region, clock: clock))
        }
        if let issuer {
            for mode in [AuthMode.userPools, .oidc] {
                var verification = TokenVerification(mode: mode, issuer: DevelopmentIssuer.issuer)
                verification.leeway = 60
                // Beside a real provider, development tokens stand in for its tokens: the same
                // client-id pattern applies (mint them with `--claims '{"aud": "..."}'`).
                verification.clientIDPattern = configuration.tokenProviders.first { $0.verification.mode == mode }?.verification.clientIDPattern
                authenticators.append(TokenAuthenticator(
                    verification: verification, loadingKeys: { try await issuer.issuer().keys }, clock: clock))
            }
        }
        return RequestAuthentication(modes: modes, authenticators: authenticators)
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

    /// The store the server reads and writes (for seeding fixtures and inspecting state).
    public var itemStore: any ItemStore { store }

    /// Purges expired delta log entries and tombstones now, as the background service does
    /// every ``ServerConfiguration/purgeInterval``.
    public func purgeExpired() async {
        await expiry.purgeOnce()
    }

    /// The AppSync SDL the server executes.
    public var appSyncSDL: String { executor.schema.sdl }

    // MARK: - Serving

    /// The Hummingbird application: `/graphql` (HTTP and the realtime WebSocket), `/health`, CORS.
    ///
    /// Run alone (HummingbirdTesting, a service group of your own) its realtime connections
    /// close with 1000 at shutdown; ``run(onServerRunning:)`` and ``start()`` close them with
    /// 1001 first.
    public func application(
        onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let router = Router(context: ServerRequestContext.self)
        // Against web pages: DNS rebinding (a loopback server answers its own names only) and
        // cross-origin calls (CORS on /graphql alone, for the configured pages).
        let hostCheck = HostCheck(listeningOn: configuration.host, allowedHosts: configuration.allowedHosts)
        if let hostCheck { router.add(middleware: HostCheck.Middleware(check: hostCheck)) }
        let schemes = tls == nil ? ["http"] : configuration.plainBesideTLS ? ["http", "https"] : ["https"]
        router.add(middleware: GraphQLCORSMiddleware(origins: CORSOrigins(configuration.corsOrigins), schemes: schemes))
        // Liveness and readiness, for container orchestrators: the store is open and the schema
        // built before the router exists, so a server that answers at all is alive, and ready
        // unless its shared database is known to be unreachable (requests get 503s then, and a
        // load balancer should send them elsewhere; restarting the process would not help).
        let shared = store as? any SharedItemStore
        for path in ["health", "health/live", "health/ready"] {
            router.get(RouterPath(path)) { _, _ in
                var status = JSONValue.object(["status": "ok"]), code = HTTPResponse.Status.ok
                if path == "health/ready", let outage = shared?.outage {
                    (status, code) = (["status": "unavailable", "reason": .string(outage)], .serviceUnavailable)
                }
                return Response(status: code, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: status.jsonText)))
            }
        }
        let authentication = HTTPAuthentication(authentication: authentication, policy: policy)
        let fixture = configuration.fixtureAPI ? self.fixture : nil
        GraphQLRoutes(
            executor: executor, authentication: authentication, maxBodyBytes: configuration.maxRequestBodyBytes, fixture: fixture,
            metrics: metrics, adminKey: adminKey
        ).add(to: router)
        if let metrics {
            MetricsRoute(metrics: metrics, realtime: realtime, token: configuration.metricsToken).add(to: router)
        }
        if let adminKey {
            let (modes, apiKey, scheme) = (authModes, self.apiKey, tls == nil ? "http" : "https")
            let introspection = project.schema.modelIntrospection
            AdminRoutes(
                fixture: self.fixture, adminKey: adminKey,
                clientConfiguration: { request in
                    ClientConfiguration(
                        url: "\(scheme)://\(request.head.authority ?? "127.0.0.1")/graphql", authModes: modes, apiKey: apiKey,
                        modelIntrospection: introspection)
                },
                maxBodyBytes: max(configuration.maxRequestBodyBytes, 512 * 1024 * 1024)
            ).add(to: router)
        }
        ConsoleRoutes().add(to: router)
        if let developmentIssuer {
            WellKnownRoutes(issuer: developmentIssuer).add(to: router)
        }
        let realtime = self.realtime
        // Events up to the realtime limit go out as one frame. No WebSocket pings: the protocol
        // has `ka`, and a ping timer per connection costs memory on every idle connection. Text
        // frames are checked as UTF-8 (RFC 6455 8.1: close with 1007 otherwise).
        let frameSize = max(1 << 16, configuration.realtime.maxEventBytes + 4096)
        return Application(
            router: router,
            server: .deltaSync(
                webSocket: .init(maxFrameSize: frameSize, autoPing: .disabled, validateUTF8: true),
                connections: configuration.connections, maxBodyBytes: configuration.maxRequestBodyBytes,
                registry: connections, tls: tls, plainBesideTLS: configuration.plainBesideTLS
            ) { request, channel, _ in
                try hostCheck?.admitUpgrade(request)
                return try realtime.shouldUpgrade(request, channel: channel)
            },
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "deltasync"),
            services: [expiry] + (sharedEvents.map { [$0] } ?? []),
            onServerRunning: { [sharedEvents, logger] channel in
                // Ready only once the other processes' events arrive: a client that subscribes
                // the moment the server is up must get them.
                if let sharedEvents, await !sharedEvents.waitUntilReceiving(limit: .seconds(10)) {
                    logger.warning("serving without the other instances' events so far: the store's channel is not connected yet")
                }
                await onServerRunning(channel)
            },
            logger: logger
        )
    }

    /// Serves until the task is cancelled or the process gets SIGINT/SIGTERM.
    ///
    /// A signal shuts the server down gracefully: realtime connections are closed with 1001
    /// (going away), then the port stops accepting, requests in flight are answered, and the
    /// call returns.
    public func run(onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }) async throws {
        if let change = try await recordServedShape() {
            logger.notice("\(change.message(deltaTTL: configuration.deltaTTL))")
        }
        let group = ServiceGroup(configuration: .init(
            services: services(application(onServerRunning: onServerRunning)),
            gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }

    /// The application and what must shut down before it: the group stops services in reverse
    /// order, so the realtime drain closes WebSockets with 1001 before the application's
    /// shutdown closes them with 1000.
    private func services(_ application: some ApplicationProtocol) -> [any Service] {
        [FunctionProcessShutdown(catalog: functions.catalog), application, realtime.drain]
    }

    /// Starts serving in the background and returns once the socket is bound.
    public func start() async throws -> RunningServer {
        let change = try await recordServedShape()
        if let change { logger.notice("\(change.message(deltaTTL: configuration.deltaTTL))") }
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let app = application(onServerRunning: { channel in
            continuation.yield(channel.localAddress?.port ?? 0)
            continuation.finish()
        })
        let group = ServiceGroup(
            configuration: .init(services: services(app), gracefulShutdownSignals: [], logger: logger))
        let task = Task { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else {
            _ = try await task.value
            throw CancellationError()
        }
        return RunningServer(
            host: configuration.host, port: port, apiKey: apiKey, usesTLS: tls != nil && !configuration.plainBesideTLS, servedShapeChange: change, group: group, task: task)
    }

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

/// A server started with ``DeltaSyncServer/start()``.
public struct RunningServer: Sendable {
    public let host: String
    public let port: Int
    public let apiKey: String
    /// Whether the server serves `https` and `wss` only (``ServerConfiguration/tls`` is set and
    /// ``ServerConfiguration/plainBesideTLS`` is not): the URLs below use those schemes.
    public let usesTLS: Bool
    /// What the start found when the store was last served with the other conflict detection
    /// mode (``DeltaSyncServer/recordServedShape()``); `nil` otherwise.
    public let servedShapeChange: ServedShapeChange?
    let group: ServiceGroup
    let task: Task<Void, any Error>

    /// `http://host:port/graphql`, or `https://` with TLS.
    public var graphQLURL: String { "\(usesTLS ? "https" : "http")://\(host):\(port)/graphql" }

    /// The realtime WebSocket: `ws://host:port/graphql`, or `wss://` with TLS.
    public var realtimeURL: String { "\(usesTLS ? "wss" : "ws")://\(host):\(port)/graphql" }

    /// Stops accepting connections, lets requests in flight finish, and waits for the server.
    public func stop() async {
        await group.triggerGracefulShutdown()
        _ = try? await task.value
    }
}
