import DeltaSyncCore
import Logging
import NIOConcurrencyHelpers

/// The started subscriptions of this process, by the mutations that trigger them, and the
/// delivery of events to them.
///
/// Deliveries are serialised, and an event older than one already delivered for the same
/// item (a lower `_version`: two mutations of one item finished in the other order) is not
/// delivered, so a subscriber sees each item's versions in increasing order.
final class SubscriptionRegistry: Sendable {
    private struct Key: Hashable {
        let outbox: ObjectIdentifier
        let id: String
    }

    private struct State {
        var byMutation: [String: [Key: Subscription]] = [:]
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
        let key = Key(outbox: ObjectIdentifier(subscription.outbox), id: subscription.id)
        state.withLockedValue { state in
            for mutation in subscription.mutations { state.byMutation[mutation, default: [:]][key] = subscription }
        }
    }

    func remove(_ subscription: Subscription) {
        let key = Key(outbox: ObjectIdentifier(subscription.outbox), id: subscription.id)
        state.withLockedValue { state in
            for mutation in subscription.mutations { state.byMutation[mutation]?[key] = nil }
        }
    }

    /// How many subscriptions a mutation would reach.
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
            guard let subscriptions = state.byMutation[event.mutation], !subscriptions.isEmpty else { return }
            var payloads: [ObjectIdentifier: [UInt8]] = [:]
            for subscription in subscriptions.values where subscription.matches(data) {
                let shape = ObjectIdentifier(subscription.shape)
                let payload: [UInt8]
                if let written = payloads[shape] {
                    payload = written
                } else {
                    payload = subscription.shape.payload(for: event.data)
                    payloads[shape] = payload
                }
                guard payload.count <= maxEventBytes else {
                    logger.warning(
                        "event not delivered: larger than the realtime limit",
                        metadata: ["mutation": "\(event.mutation)", "bytes": "\(payload.count)", "limit": "\(maxEventBytes)"])
                    continue
                }
                subscription.outbox.send(RealtimeServerMessage.data(id: subscription.id, payload: payload))
            }
        }
    }
}
