import DeltaSyncAuth
import DeltaSyncCore
import DeltaSyncGraphQL
import HTTPTypes
import HummingbirdWebSocket
import Logging
import NIOCore

/// The realtime WebSocket endpoint on the HTTP port: upgrades `/graphql` and
/// `/graphql/realtime` with the `graphql-ws` subprotocol and serves AppSync's protocol.
package struct RealtimeEndpoint: Sendable {
    static let paths: Set<String> = ["/graphql", "/graphql/realtime"]
    static let subprotocol = "graphql-ws"

    let configuration: RealtimeConfiguration
    /// Authenticates the handshake (and, through ``SubscriptionStart``, every start).
    let authentication: RequestAuthentication
    let starts: SubscriptionStart
    package let registry: SubscriptionRegistry
    /// The open connections, for the fixture API.
    package let connections = RealtimeConnections()
    /// Takes a WebSocket into the HTTP port's connections, or throws the refusal the port
    /// answers (WebSockets may not take the slots kept for HTTP).
    let admit: @Sendable (any Channel) throws -> Void
    /// Closes the open connections with 1001 when the server shuts down: run it as a service
    /// after the HTTP application (see ``RealtimeDrain``).
    package var drain: RealtimeDrain { RealtimeDrain(connections: connections) }
    let logger: Logger

    package init(
        configuration: RealtimeConfiguration, authentication: RequestAuthentication, policy: AuthorizationPolicy,
        executor: RequestExecutor, registry: SubscriptionRegistry,
        admit: @escaping @Sendable (any Channel) throws -> Void, reportStart: (@Sendable (StartReport) -> Void)? = nil,
        logger: Logger
    ) {
        self.configuration = configuration
        self.authentication = authentication
        starts = SubscriptionStart(executor: executor, authentication: authentication, policy: policy, report: reportStart)
        self.registry = registry
        self.admit = admit
        self.logger = logger
    }

    /// Decides an upgrade request. Requests for other paths, or without `graphql-ws`, stay
    /// HTTP requests.
    ///
    /// - Throws: what `admit` throws when WebSockets hold every slot they may take; the
    ///   connection's gate answers it.
    package func shouldUpgrade(_ request: HTTPRequest, channel: any Channel) throws -> ShouldUpgradeResult<
        WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>
    > {
        let path = String((request.path ?? "").prefix { $0 != "?" })
        guard Self.paths.contains(path),
            RealtimeAuthorization.subprotocols(request.headerFields).contains(Self.subprotocol)
        else { return .dontUpgrade }
        try admit(channel)
        // Only `graphql-ws` is answered: browsers fail the handshake if the `header-...`
        // entry comes back.
        let headers: HTTPFields = [.secWebSocketProtocol: Self.subprotocol]
        let carried: Result<RealtimeAuthorization, AppSyncError>
        do {
            carried = .success(try RealtimeAuthorization(upgrade: request))
        } catch {
            carried = .failure(error)
        }
        let connection = RealtimeConnection(
            configuration: configuration, starts: starts, registry: registry, connections: connections, channel: channel,
            logger: logger)
        let authentication = authentication
        return .upgrade(headers) { inbound, outbound, _ in
            // Authenticated once upgraded (verifying a token may wait: keys are loaded on first
            // use), in a task of its own, so the connection's task does not keep its stack.
            switch await inOwnTask({ await Self.identity(carried, authentication: authentication) }) {
            case .success(let identity):
                try await connection.run(inbound: inbound, outbound: outbound, identity: identity)
            case .failure(let refusal):
                try await Self.refuse(refusal, inbound: inbound, outbound: outbound)
            }
        }
    }

    /// Who the handshake's authorization says is connecting, or why they may not.
    private static func identity(
        _ carried: Result<RealtimeAuthorization, AppSyncError>, authentication: RequestAuthentication
    ) async -> Result<Identity?, AppSyncError> {
        switch carried {
        case .failure(let error):
            return .failure(error)
        case .success(let authorization):
            do {
                return .success(
                    try await authentication.authenticate(
                        // What AppSync's clients sign for the handshake: POST /graphql/connect with `{}`.
                        Credentials(headers: authorization.headers, method: "POST", path: "/graphql/connect", body: Array("{}".utf8))))
            } catch {
                return .failure(error.error)
            }
        }
    }

    /// A connection never acknowledged: the error answers the client's first message (bytes
    /// sent right behind the 101 response can be lost by clients still switching protocols),
    /// then the close.
    private static func refuse(_ refusal: AppSyncError, inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
        _ = try? await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                _ = try await messages.next()
            }
            group.addTask { try await Task.sleep(for: .seconds(10)) }
            try await group.next()
            group.cancelAll()
        }
        try await outbound.write(.text(String(decoding: RealtimeServerMessage.connectionError(refusal, code: 401), as: UTF8.self)))
        try await outbound.close(.policyViolation, reason: refusal.message)
    }
}
