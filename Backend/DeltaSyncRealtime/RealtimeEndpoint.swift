import DeltaSyncAuth
import DeltaSyncCore
import DeltaSyncGraphQL
import HTTPTypes
import HummingbirdWebSocket
import Logging
import NIOCore

/// The realtime WebSocket endpoint on the HTTP port: upgrades `/graphql` and
/// `/graphql/realtime` with the `graphql-ws` subprotocol and serves AppSync's protocol, each
/// connection by a ``RealtimeSocket`` in its channel's pipeline.
package struct RealtimeEndpoint: Sendable {
    static let paths: Set<String> = ["/graphql", "/graphql/realtime"]
    static let subprotocol = "graphql-ws"

    let realtime: RealtimeProtocol
    package var registry: SubscriptionRegistry { realtime.registry }
    /// The open connections, for the fixture API.
    package var connections: RealtimeConnections { realtime.connections }
    /// Takes a WebSocket into the HTTP port's connections, or throws the refusal the port
    /// answers (WebSockets may not take the slots kept for HTTP).
    let admit: @Sendable (any Channel) throws -> Void
    /// Closes the open connections with 1001 when the server shuts down: run it as a service
    /// after the HTTP application (see ``RealtimeDrain``).
    package var drain: RealtimeDrain { RealtimeDrain(connections: connections) }

    package init(
        configuration: RealtimeConfiguration, authentication: RequestAuthentication, policy: AuthorizationPolicy,
        executor: RequestExecutor, registry: SubscriptionRegistry,
        admit: @escaping @Sendable (any Channel) throws -> Void, reportStart: (@Sendable (StartReport) -> Void)? = nil,
        logger: Logger
    ) {
        realtime = RealtimeProtocol(
            configuration: configuration, authentication: authentication,
            starts: SubscriptionStart(executor: executor, authentication: authentication, policy: policy, report: reportStart),
            registry: registry, connections: RealtimeConnections(), logger: logger)
        self.admit = admit
    }

    /// Decides an upgrade request: the socket to add to the upgraded channel's pipeline.
    /// Requests for other paths, or without `graphql-ws`, stay HTTP requests.
    ///
    /// - Throws: what `admit` throws when WebSockets hold every slot they may take; the
    ///   connection's gate answers it.
    package func shouldUpgrade(_ request: HTTPRequest, channel: any Channel) throws -> ShouldUpgradeResult<RealtimeSocket> {
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
        return .upgrade(headers, RealtimeSocket(realtime: realtime, channel: channel, carried: carried))
    }
}
