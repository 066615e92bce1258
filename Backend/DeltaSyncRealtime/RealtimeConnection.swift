import DeltaSyncAuth
import DeltaSyncCore
import DeltaSyncGraphQL
import HummingbirdWebSocket
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOWebSocket

/// One realtime WebSocket connection: the protocol's state machine over the inbound messages.
/// Writes run on the event loop (``RealtimeOutbox``); the timers and the endings are the
/// connection's ``RealtimeLifecycle``.
struct RealtimeConnection: Sendable {
    let configuration: RealtimeConfiguration
    let starts: SubscriptionStart
    let registry: SubscriptionRegistry
    /// Where the connection is listed while it is open.
    let connections: RealtimeConnections
    /// Closed directly when the subscriber stops reading: a write to it may never complete.
    let channel: any Channel
    let logger: Logger

    /// Serves the connection until the client closes it or an ending closes it.
    ///
    /// One task per connection, the one that reads: ten thousand idle connections are ten
    /// thousand suspended tasks, and each keeps the memory of its deepest wait, so the work of a
    /// start runs in a task of its own (``inOwnTask(_:)``).
    ///
    /// - Throws: what the inbound stream threw for a protocol violation (a message over the
    ///   size limit, text that is not UTF-8), so the WebSocket handler closes with its code
    ///   (1009, 1007) rather than 1000.
    func run(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, identity: Identity?) async throws {
        let lifecycle = RealtimeLifecycle(channel: channel, outbound: outbound, configuration: configuration, logger: logger)
        let outbox = RealtimeOutbox(channel: channel, limit: configuration.outboundQueueLimit, logger: logger) { [registry] in
            registry.countDropped()
            lifecycle.end(.overflowed)
        }
        let subscriptions = Subscriptions()
        // Unregistered once the close frame is out, which is what a shutdown's drain waits for.
        let listed = connections.register(identity: identity, subscriptions: subscriptions) { closing in
            switch closing {
            case .shutdown: lifecycle.end(.shuttingDown)
            case .fixture(let drop): lifecycle.end(.closedByFixture(drop: drop))
            }
        }
        lifecycle.start()
        var protocolViolation: (any Error)?
        // No graceful-shutdown handler of its own: ``RealtimeDrain`` ends every connection with
        // 1001 before the application's shutdown starts, and a handler's frames would stay on
        // the stack of every idle connection.
        do {
            try await read(inbound, outbox: outbox, subscriptions: subscriptions, lifecycle: lifecycle)
        } catch is CancellationError {
        } catch where lifecycle.hasEnded {
            // Reading fails once an ending has closed the socket under it.
        } catch {
            logger.debug("realtime connection ended", metadata: ["reason": "\(error)"])
            protocolViolation = error
        }
        lifecycle.stop()
        for subscription in subscriptions.all { registry.remove(subscription) }
        outbox.finish()
        connections.unregister(listed)
        if let protocolViolation { throw protocolViolation }
    }

    /// Reads until the client closes the connection, or answers the close frame of an ending.
    private func read(
        _ inbound: WebSocketInboundStream, outbox: RealtimeOutbox, subscriptions: Subscriptions, lifecycle: RealtimeLifecycle
    ) async throws {
        for try await message in inbound.messages(maxSize: 1 << 20) {
            // Once ending, the connection only waits for the client's close frame.
            guard !lifecycle.hasEnded else { continue }
            guard case .text(let text) = message else {
                outbox.send(RealtimeServerMessage.error(id: nil, AppSyncError(.malformedMessage, "Messages are JSON text frames.")))
                continue
            }
            let parsed: RealtimeClientMessage
            do {
                parsed = try RealtimeClientMessage(text: text)
            } catch {
                outbox.send(RealtimeServerMessage.error(id: nil, error))
                continue
            }
            switch parsed {
            case .connectionInit:
                let acknowledgement = RealtimeServerMessage.connectionAck(timeoutMilliseconds: configuration.connectionTimeout.milliseconds)
                lifecycle.acknowledge { outbox.send(acknowledgement) } keepAlive: { outbox.send(RealtimeServerMessage.keepAlive) }
            case .start(let id, let data, let extensions):
                // As AppSync: nothing is started before the connection is acknowledged.
                guard lifecycle.isAcknowledged else { continue }
                await inOwnTask { await start(id: id, data: data, extensions: extensions, outbox: outbox, subscriptions: subscriptions) }
            case .stop(let id):
                guard lifecycle.isAcknowledged else { continue }
                if let subscription = subscriptions.remove(id) { registry.remove(subscription) }
                outbox.send(RealtimeServerMessage.complete(id: id))
            case .connectionTerminate:
                lifecycle.end(.terminated)
            case .unsupported(let type):
                outbox.send(RealtimeServerMessage.error(
                    id: nil, AppSyncError(.unsupportedOperation, "\(type) not supported through the realtime channel")))
            }
        }
    }

    private func start(id: String, data: String, extensions: JSONValue, outbox: RealtimeOutbox, subscriptions: Subscriptions) async {
        guard !subscriptions.contains(id) else {
            outbox.send(RealtimeServerMessage.error(
                id: id, AppSyncError(.duplicatedOperation, "Duplicated operation with id \(id)")))
            return
        }
        guard subscriptions.count < configuration.maxSubscriptionsPerConnection else {
            outbox.send(RealtimeServerMessage.error(
                id: id,
                AppSyncError(
                    .maxSubscriptionsReached,
                    "Max number of \(configuration.maxSubscriptionsPerConnection) subscriptions reached")))
            return
        }
        switch await starts.subscription(id: id, data: data, extensions: extensions, outbox: outbox) {
        case .failure(let failure):
            outbox.send(RealtimeServerMessage.error(id: id, failure))
        case .success(let subscription):
            subscriptions.insert(subscription)
            // Acknowledged before it can receive: events queue behind the start_ack.
            outbox.send(RealtimeServerMessage.startAck(id: id))
            registry.add(subscription)
        }
    }
}

/// A connection's started subscriptions, by id.
final class Subscriptions: Sendable {
    private let byID = NIOLockedValueBox<[String: Subscription]>([:])

    var count: Int { byID.withLockedValue { $0.count } }
    var all: [Subscription] { byID.withLockedValue { Array($0.values) } }
    func contains(_ id: String) -> Bool { byID.withLockedValue { $0[id] != nil } }
    func insert(_ subscription: Subscription) { byID.withLockedValue { $0[subscription.id] = subscription } }
    func remove(_ id: String) -> Subscription? { byID.withLockedValue { $0.removeValue(forKey: id) } }
}
