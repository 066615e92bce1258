import DeltaSyncCore
import DeltaSyncGraphQL
import Logging
import NIOConcurrencyHelpers
import NIOCore

/// The started subscriptions of this process, by the mutations that trigger them, and the
/// delivery of events to them.
///
/// Deliveries are serialised, and an event older than one already delivered for the same
/// item (a lower `_version`: two mutations of one item finished in the other order) is not
/// delivered, so a subscriber sees each item's versions in increasing order.
package final class SubscriptionRegistry: Sendable {
    /// One connection's subscriptions to one mutation: an event reaches a connection as one
    /// batch, one socket write.
    private struct Connection {
        let outbox: RealtimeOutbox
        var subscriptions: [String: Subscription] = [:]
    }

    private struct State {
        var byMutation: [String: [ObjectIdentifier: Connection]] = [:]
        /// Built from `byMutation` when an event needs it; dropped when it changes.
        var plans: [String: DeliveryPlan] = [:]
        /// The last version delivered per item, with when; only recent ones matter, because
        /// out-of-order completions are close together.
        var delivered: [String: (version: Int, at: ContinuousClock.Instant)] = [:]
        /// Events handed to subscribers, and events not delivered (too large, subscriber too slow).
        var sent = 0
        var dropped = 0

        /// The mutation's delivery plan, `nil` when nobody subscribes to it.
        mutating func plan(for mutation: String) -> DeliveryPlan? {
            if let plan = plans[mutation] { return plan }
            guard let connections = byMutation[mutation], !connections.isEmpty else { return nil }
            let plan = DeliveryPlan(connections: connections.values.map { ($0.outbox, $0.subscriptions.values) })
            plans[mutation] = plan
            return plan
        }
    }

    private let state = NIOLockedValueBox(State())
    private let maxEventBytes: Int
    private let logger: Logger
    private static let orderingWindow = Duration.seconds(10)

    package init(maxEventBytes: Int, logger: Logger) {
        self.maxEventBytes = maxEventBytes
        self.logger = logger
    }

    func add(_ subscription: Subscription) {
        let outbox = subscription.outbox
        state.withLockedValue { state in
            for mutation in subscription.mutations {
                state.byMutation[mutation, default: [:]][ObjectIdentifier(outbox), default: Connection(outbox: outbox)]
                    .subscriptions[subscription.id] = subscription
                state.plans[mutation] = nil
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
                state.plans[mutation] = nil
            }
        }
    }

    /// Events delivered to subscribers and events dropped, since the start (for metrics).
    package var eventCounts: (sent: Int, dropped: Int) {
        state.withLockedValue { ($0.sent, $0.dropped) }
    }

    /// Started subscriptions, over every connection.
    package var subscriptionCount: Int {
        state.withLockedValue { state in
            var ids = Set<ObjectIdentifier>()
            for connections in state.byMutation.values {
                for connection in connections.values {
                    for subscription in connection.subscriptions.values { ids.insert(ObjectIdentifier(subscription)) }
                }
            }
            return ids.count
        }
    }

    /// Counts an event a slow subscriber's full queue dropped.
    func countDropped() {
        state.withLockedValue { $0.dropped += 1 }
    }

    /// How many connections a mutation would reach.
    func count(for mutation: String) -> Int {
        state.withLockedValue { $0.byMutation[mutation]?.count ?? 0 }
    }

    /// Queues the event for every matching subscription. Never waits for a subscriber: the
    /// framing and writing happen on the connections' event loops.
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
            guard let plan = state.plan(for: event.mutation) else { return }
            state.sent += 1
            let payloads = plan.eventPlans.map { eventPlan -> [UInt8]? in
                var payload = eventPlan.payload(for: event.data)
                guard payload.count <= maxEventBytes else {
                    state.dropped += 1
                    logger.warning(
                        "event not delivered: larger than the realtime limit",
                        metadata: ["mutation": "\(event.mutation)", "bytes": "\(payload.count)", "limit": "\(maxEventBytes)"])
                    return nil
                }
                payload.append(UInt8(ascii: "}"))
                return payload
            }
            // Queued while the lock is held, and each loop runs its tasks in order: events
            // reach every connection in the order they were delivered here.
            for loop in plan.loops {
                loop.eventLoop.execute { loop.deliver(data, payloads: payloads) }
            }
        }
    }
}

