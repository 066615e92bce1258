import DeltaSyncGraphQL
import Foundation

/// Limits and timers of the realtime WebSocket endpoint. The defaults are AppSync's; tests
/// shorten them.
public struct RealtimeConfiguration: Sendable {
    /// Sent as `connection_ack.payload.connectionTimeoutMs`: clients reconnect when no `ka`
    /// arrives within it.
    public var connectionTimeout: Duration = .seconds(300)
    /// How long an upgraded connection may go without sending `connection_init` before it is
    /// closed (1008). AppSync documents no such wait; the default is ``connectionTimeout``, the
    /// wait AppSync asks clients to allow the other way. Clients send `connection_init` at once.
    public var connectionInitTimeout: Duration = .seconds(300)
    /// How often `ka` is sent; well inside ``connectionTimeout``.
    public var keepAliveInterval: Duration = .seconds(60)
    /// Subscriptions one connection may hold (`MaxSubscriptionsReachedError` beyond).
    public var maxSubscriptionsPerConnection = 100
    /// Events larger than this are not delivered (AppSync drops them silently; DeltaSync logs).
    public var maxEventBytes = 240 * 1024
    /// Connections are closed after this long; clients reconnect.
    public var maxConnectionDuration: Duration = .seconds(24 * 3600)
    /// Messages waiting to be written to one connection. A subscriber that falls this far
    /// behind is disconnected rather than holding memory without limit.
    public var outboundQueueLimit = 1000

    public init() {}
}
