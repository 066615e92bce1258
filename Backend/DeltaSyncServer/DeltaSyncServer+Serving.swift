import DeltaSyncAuth
import DeltaSyncConsole
import DeltaSyncCore
import DeltaSyncFixture
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

// Serving: the Hummingbird application, and running it in the foreground or the background.
extension DeltaSyncServer {
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
            FixtureRoutes(
                fixture: self.fixture, adminKey: adminKey,
                maxBodyBytes: max(configuration.maxRequestBodyBytes, 512 * 1024 * 1024),
                clientConfiguration: { request in
                    ClientConfiguration(
                        url: "\(scheme)://\(request.head.authority ?? "127.0.0.1")/graphql", authModes: modes, apiKey: apiKey,
                        modelIntrospection: introspection
                    ).json
                }
            ).add(to: router)
        }
        ConsoleRoutes().add(to: router)
        if let developmentIssuer {
            WellKnownRoutes(issuer: developmentIssuer).add(to: router)
        }
        let realtime = self.realtime
        // A client's frames up to the realtime event limit (its messages are far smaller); a
        // message may be fragmented up to 1 MiB (`RealtimeSocket`).
        let frameSize = max(1 << 16, configuration.realtime.maxEventBytes + 4096)
        return Application(
            router: router,
            server: .deltaSync(
                maxFrameSize: frameSize,
                connections: configuration.connections, maxBodyBytes: configuration.maxRequestBodyBytes,
                registry: connections, tls: tls, plainBesideTLS: configuration.plainBesideTLS
            ) { request, channel, _ in
                try hostCheck?.admitUpgrade(request)
                return try realtime.shouldUpgrade(request, channel: channel)
            },
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "deltasync"),
            services: [expiry] + (sharedEvents.map { [$0] } ?? [])
                + (configuration.freedMemoryReturn.map { [FreedMemoryReturn(interval: $0, growth: 32 << 20)] } ?? []),
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
        [FunctionProcessShutdown(functions: functions), application, realtime.drain]
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
}
