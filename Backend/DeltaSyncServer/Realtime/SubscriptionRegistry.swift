import DeltaSyncCore
import Logging
import NIOConcurrencyHelpers
import NIOCore

/// The started subscriptions of this process, by the mutations that trigger them, and the
/// delivery of events to them.
///
/// Deliveries are serialised, and an event older than one already delivered for the same
/// item (a lower `_version`: two mutations of one item finished in the other order) is not
/// delivered, so a subscriber sees each item's versions in increasing order.
final class SubscriptionRegistry: Sendable {
    /// One connection's subscriptions to one mutation: an event reaches a connection as one
    /// batch, so it costs one hop to its event loop and one socket write.
    private struct Connection {
        let outbox: RealtimeOutbox
        var subscriptions: [String: Subscription] = [:]
    }

    private struct State {
        var byMutation: [String: [ObjectIdentifier: Connection]] = [:]
        /// The last version delivered per item, with when; only recent ones matter, because
        /// out-of-order completions are close together.
        var delivered: [String: (version: Int, at: ContinuousClock.Instant)] = [:]
    }

    private let state = NIOLockedValueBox(State())
    private let maxEventBytes: Int
    private let logger: Logger
    private static let orderingWindow = Duration.seconds(10)

    init(maxEventBytes: Int, logger: Logger) {
        self.maxEventBytes = maxEventBytes
        self.logger = logger
    }

    func add(_ subscription: Subscription) {
        let outbox = subscription.outbox
        state.withLockedValue { state in
            for mutation in subscription.mutations {
                state.byMutation[mutation, default: [:]][ObjectIdentifier(outbox), default: Connection(outbox: outbox)]
                    .subscriptions[subscription.id] = subscription
            }
        }
    }

    func remove(_ subscription: Subscription) {
        let connection = ObjectIdentifier(subscription.outbox)
        state.withLockedValue { state in
            for mutation in subscription.mutations {
                state.byMutation[mutation]?[connection]?.subscriptions[subscription.id] = nil
                if state.byMutation[mutation]?[connection]?.subscriptions.isEmpty == true {
                    state.byMutation[mutation]?[connection] = nil
                }
            }
        }
    }

    /// How many connections a mutation would reach.
    func count(for mutation: String) -> Int {
        state.withLockedValue { $0.byMutation[mutation]?.count ?? 0 }
    }

    /// Queues the event for every matching subscription. Never waits for a subscriber.
    func deliver(_ event: MutationEvent) {
        guard case .object(let data) = event.data else { return }
        state.withLockedValue { state in
            if let key = event.itemKey, let version = event.version {
                let now = ContinuousClock.now
                if let last = state.delivered[key], version < last.version, now - last.at < Self.orderingWindow { return }
                if state.delivered.count > 100_000 {
                    state.delivered = state.delivered.filter { now - $0.value.at < Self.orderingWindow }
                }
                state.delivered[key] = (version, now)
            }
            guard let connections = state.byMutation[event.mutation], !connections.isEmpty else { return }
            var payloads: [ObjectIdentifier: [UInt8]] = [:]
            // Subscriptions of one connection usually share a shape: the last one found is kept.
            var lastShape: ObjectIdentifier?
            var payload: [UInt8] = []
            let allocator = ByteBufferAllocator()
            for connection in connections.values {
                var frames: ByteBuffer?
                var count = 0
                for subscription in connection.subscriptions.values where subscription.matches(data) {
                    let shape = ObjectIdentifier(subscription.shape)
                    if shape != lastShape {
                        if let written = payloads[shape] {
                            payload = written
                        } else {
                            payload = subscription.shape.payload(for: event.data)
                            payloads[shape] = payload
                        }
                        lastShape = shape
                    }
                    guard payload.count <= maxEventBytes else {
                        logger.warning(
                            "event not delivered: larger than the realtime limit",
                            metadata: ["mutation": "\(event.mutation)", "bytes": "\(payload.count)", "limit": "\(maxEventBytes)"])
                        continue
                    }
                    if frames == nil { frames = allocator.buffer(capacity: connection.subscriptions.count * (payload.count + 96)) }
                    RealtimeOutbox.appendTextFrame(subscription.dataPrefix, payload, Self.closingBrace, to: &frames!)
                    count += 1
                }
                if let frames { connection.outbox.send(frames: frames, messages: count) }
            }
        }
    }

    /// What ends a `data` message after its payload.
    private static let closingBrace: [UInt8] = [UInt8(ascii: "}")]
}
