import DeltaSyncAuth
import DeltaSyncCore
import DeltaSyncGraphQL
import HummingbirdWebSocket
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOWebSocket
import ServiceLifecycle

/// One realtime WebSocket connection: the protocol's state machine over the inbound messages,
/// with a writer, the keep-alive timer and the lifetime limit running beside it.
struct RealtimeConnection: Sendable {
    let configuration: RealtimeConfiguration
    let starts: SubscriptionStart
    let registry: SubscriptionRegistry
    /// Where the connection is listed while it is open.
    let connections: RealtimeConnections
    /// Closed directly when the subscriber stops reading: a write to it may never complete.
    let channel: any Channel
    let logger: Logger

    private enum Ending: Error {
        case clientClosed
        case overflowed
        case expired
        case notInitialized
        case shuttingDown
        /// The fixture API closed it (``RealtimeConnections/closeAll(drop:)``).
        case closedByFixture(drop: Bool)
        /// The client sent `connection_terminate`.
        case terminated
    }

    /// Serves the connection until the client closes it or a limit ends it.
    ///
    /// Three tasks per connection (reader, timer, endings; writes run on the event loop): ten
    /// thousand idle connections are thirty thousand suspended tasks, so each one counts.
    ///
    /// - Throws: what the inbound stream threw for a protocol violation (a message over the
    ///   size limit, text that is not UTF-8), so the WebSocket handler closes with its code
    ///   (1009, 1007) rather than 1000.
    func run(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, identity: Identity?) async throws {
        let endings = AsyncStream.makeStream(of: Ending.self, bufferingPolicy: .bufferingOldest(1))
        let outbox = RealtimeOutbox(channel: channel, limit: configuration.outboundQueueLimit, logger: logger) { [registry] in
            registry.countDropped()
            endings.continuation.yield(.overflowed)
        }
        let subscriptions = Subscriptions()
        // Unregistered once the close frame is out, which is what a shutdown's drain waits for.
        let listed = connections.register(identity: identity, subscriptions: subscriptions) { closing in
            switch closing {
            case .shutdown: endings.continuation.yield(.shuttingDown)
            case .fixture(let drop): endings.continuation.yield(.closedByFixture(drop: drop))
            }
        }
        defer { connections.unregister(listed) }
        let acknowledged = NIOLockedValueBox(false)
        var protocolViolation: (any Error)?
        do {
            try await withGracefulShutdownHandler {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        try await read(inbound, outbox: outbox, subscriptions: subscriptions, acknowledged: acknowledged)
                        throw Ending.clientClosed
                    }
                    group.addTask {
                        // `ka` from the acknowledgement on, the wait for `connection_init`, and the
                        // end of the connection's lifetime.
                        let clock = ContinuousClock()
                        let deadline = clock.now + configuration.maxConnectionDuration
                        let initDeadline = clock.now + configuration.connectionInitTimeout
                        while true {
                            var wake = min(clock.now + configuration.keepAliveInterval, deadline)
                            let waitingForInit = !acknowledged.withLockedValue({ $0 })
                            if waitingForInit { wake = min(wake, initDeadline) }
                            try await Task.sleep(until: wake, clock: clock)
                            if clock.now >= deadline { throw Ending.expired }
                            if acknowledged.withLockedValue({ $0 }) {
                                outbox.send(RealtimeServerMessage.keepAlive)
                            } else if clock.now >= initDeadline {
                                throw Ending.notInitialized
                            }
                        }
                    }
                    group.addTask {
                        for await ending in endings.stream { throw ending }
                    }
                    try await group.next()
                }
            } onGracefulShutdown: {
                endings.continuation.yield(.shuttingDown)
            }
        } catch Ending.overflowed {
            logger.warning("realtime subscriber too slow: disconnected", metadata: ["queued": "\(configuration.outboundQueueLimit)"])
            // Writes to this peer are stuck; closing the channel fails them and ends the writer.
            channel.close(promise: nil)
        } catch Ending.expired {
            await close(outbound, .normalClosure, reason: "Connection lifetime reached; reconnect.")
        } catch Ending.terminated {
            await close(outbound, .normalClosure, reason: "connection_terminate received.")
        } catch Ending.clientClosed {
            // The client's close frame was answered by the WebSocket handler.
        } catch is CancellationError {
        } catch Ending.notInitialized {
            await close(outbound, .policyViolation, reason: "connection_init was not received in time.")
        } catch Ending.shuttingDown {
            await close(outbound, .goingAway, reason: "The server is shutting down.")
        } catch Ending.closedByFixture(let drop) {
            if drop {
                channel.close(promise: nil)
            } else {
                await close(outbound, .goingAway, reason: "Closed through the DeltaSync fixture API.")
            }
        } catch {
            logger.debug("realtime connection ended", metadata: ["reason": "\(error)"])
            protocolViolation = error
        }
        endings.continuation.finish()
        for subscription in subscriptions.all { registry.remove(subscription) }
        outbox.finish()
        if let protocolViolation { throw protocolViolation }
    }

    /// Sends a close frame, or closes the socket if the peer does not take it within a second
    /// (a peer that stopped reading would otherwise hold the connection, and a shutdown, open).
    private func close(_ outbound: WebSocketOutboundWriter, _ code: WebSocketErrorCode, reason: String) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await outbound.close(code, reason: reason) }
            group.addTask { try? await Task.sleep(for: .seconds(1)) }
            await group.next()
            channel.close(promise: nil)
            group.cancelAll()
        }
    }

    private func read(
        _ inbound: WebSocketInboundStream, outbox: RealtimeOutbox, subscriptions: Subscriptions,
        acknowledged: NIOLockedValueBox<Bool>
    ) async throws {
        for try await message in inbound.messages(maxSize: 1 << 20) {
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
                acknowledged.withLockedValue { acknowledged in
                    // Queued under the flag's lock, so no `ka` can go out before it.
                    guard !acknowledged else { return }
                    outbox.send(RealtimeServerMessage.connectionAck(timeoutMilliseconds: configuration.connectionTimeout.milliseconds))
                    acknowledged = true
                }
            case .start(let id, let data, let extensions):
                // As AppSync: nothing is started before the connection is acknowledged.
                guard acknowledged.withLockedValue({ $0 }) else { continue }
                await start(id: id, data: data, extensions: extensions, outbox: outbox, subscriptions: subscriptions)
            case .stop(let id):
                guard acknowledged.withLockedValue({ $0 }) else { continue }
                if let subscription = subscriptions.remove(id) { registry.remove(subscription) }
                outbox.send(RealtimeServerMessage.complete(id: id))
            case .connectionTerminate:
                throw Ending.terminated
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
