import DeltaSyncAuth
import DeltaSyncCore
import DeltaSyncGraphQL
import Logging
import NIOConcurrencyHelpers

/// AppSync's realtime protocol as every connection of one endpoint speaks it: the limits, how a
/// handshake is authenticated and a start decided, and where subscriptions and connections are
/// registered. One per endpoint; each ``RealtimeSocket`` holds a reference, not a copy.
final class RealtimeProtocol: Sendable {
    let configuration: RealtimeConfiguration
    let authentication: RequestAuthentication
    let starts: SubscriptionStart
    let registry: SubscriptionRegistry
    /// Where a connection is listed while it is open.
    let connections: RealtimeConnections
    let logger: Logger

    init(
        configuration: RealtimeConfiguration, authentication: RequestAuthentication, starts: SubscriptionStart,
        registry: SubscriptionRegistry, connections: RealtimeConnections, logger: Logger
    ) {
        self.configuration = configuration
        self.authentication = authentication
        self.starts = starts
        self.registry = registry
        self.connections = connections
        self.logger = logger
    }

    /// Who the handshake's authorization says is connecting, or why they may not.
    func identity(_ carried: Result<RealtimeAuthorization, AppSyncError>) async -> Result<Identity?, AppSyncError> {
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

    /// Decides a start: the subscription to add, or the error that answers it. `started` is
    /// how many the connection has.
    func start(id: String, data: String, extensions: JSONValue, outbox: RealtimeOutbox, started: Int) async -> Result<
        Subscription, ResponseErrors
    > {
        guard started < configuration.maxSubscriptionsPerConnection else {
            return .failure(ResponseErrors(AppSyncError(
                .maxSubscriptionsReached, "Max number of \(configuration.maxSubscriptionsPerConnection) subscriptions reached")))
        }
        return await starts.subscription(id: id, data: data, extensions: extensions, outbox: outbox)
    }
}

/// A connection's started subscriptions, by id (listed by the fixture API from any thread).
final class Subscriptions: Sendable {
    private let byID = NIOLockedValueBox<[String: Subscription]>([:])

    var count: Int { byID.withLockedValue { $0.count } }
    var all: [Subscription] { byID.withLockedValue { Array($0.values) } }
    func contains(_ id: String) -> Bool { byID.withLockedValue { $0[id] != nil } }
    func insert(_ subscription: Subscription) { byID.withLockedValue { $0[subscription.id] = subscription } }
    func remove(_ id: String) -> Subscription? { byID.withLockedValue { $0.removeValue(forKey: id) } }
    func removeAll() -> [Subscription] {
        byID.withLockedValue { byID in
            defer { byID = [:] }
            return Array(byID.values)
        }
    }
}
