import DeltaSyncCore
import DeltaSyncGraphQL
import NIOCore

/// The subscribers of one mutation, laid out for delivering its events; built on the first
/// event after a subscription started or stopped.
///
/// Connections are grouped by their event loop, and each loop frames and writes its own
/// connections' messages: an event costs one hop per loop, and the loops work in parallel
/// instead of waiting for one thread to frame every message. Within a connection, the
/// subscriptions that take every event (no filter, no argument) keep their message prefixes in
/// one array per plan, because visiting a thousand subscription objects per event was mostly
/// cache misses.
struct DeliveryPlan: Sendable {
    /// The distinct event plans; payloads are written once per plan, indexed like this.
    let eventPlans: [EventPlan]
    let loops: [Loop]

    struct Loop: Sendable {
        let eventLoop: any EventLoop
        let connections: [Connection]

        /// Frames the event for each connection and queues it; on `eventLoop`.
        ///
        /// - Parameter payloads: by plan, each followed by the `}` that ends a `data` message;
        ///   `nil` for a plan whose payload is not delivered.
        func deliver(_ data: Item, payloads: [[UInt8]?]) {
            let allocator = ByteBufferAllocator()
            for connection in connections {
                var frames = allocator.buffer(capacity: connection.capacity(payloads))
                var count = 0
                for run in connection.runs {
                    guard let payload = payloads[run.plan] else { continue }
                    var start = 0
                    for end in run.ends {
                        RealtimeOutbox.appendTextFrame(run.prefixes[start..<end], payload, to: &frames)
                        start = end
                    }
                    count += run.ends.count
                }
                for (plan, subscription) in connection.filtered where subscription.matches(data) {
                    guard let payload = payloads[plan] else { continue }
                    RealtimeOutbox.appendTextFrame(subscription.dataPrefix[...], payload, to: &frames)
                    count += 1
                }
                if count > 0 { connection.outbox.send(frames: frames, messages: count) }
            }
        }
    }

    struct Connection: Sendable {
        let outbox: RealtimeOutbox
        let runs: [Run]
        /// Subscriptions with a filter or arguments, checked against each event.
        let filtered: [(plan: Int, subscription: Subscription)]

        /// Enough bytes for every message, so framing never grows the buffer.
        func capacity(_ payloads: [[UInt8]?]) -> Int {
            var bytes = 0
            for run in runs { bytes += run.prefixes.count + run.ends.count * ((payloads[run.plan]?.count ?? 0) + 10) }
            for (plan, subscription) in filtered { bytes += subscription.dataPrefix.count + (payloads[plan]?.count ?? 0) + 11 }
            return bytes
        }
    }

    /// Unfiltered subscriptions of one connection sharing one plan: their message prefixes end
    /// to end, each ending at the matching entry of `ends`.
    struct Run: Sendable {
        let plan: Int
        private(set) var prefixes: [UInt8] = []
        private(set) var ends: [Int] = []

        init(plan: Int) { self.plan = plan }

        mutating func append(_ prefix: [UInt8]) {
            prefixes += prefix
            ends.append(prefixes.count)
        }
    }

    init(connections: some Sequence<(outbox: RealtimeOutbox, subscriptions: some Collection<Subscription>)>) {
        var eventPlans: [EventPlan] = []
        var planIndex: [ObjectIdentifier: Int] = [:]
        var loops: [ObjectIdentifier: (eventLoop: any EventLoop, connections: [Connection])] = [:]
        for (outbox, subscriptions) in connections {
            var runs: [Int: Run] = [:]
            var filtered: [(plan: Int, subscription: Subscription)] = []
            for subscription in subscriptions {
                let plan: Int
                if let known = planIndex[ObjectIdentifier(subscription.eventPlan)] {
                    plan = known
                } else {
                    plan = eventPlans.count
                    eventPlans.append(subscription.eventPlan)
                    planIndex[ObjectIdentifier(subscription.eventPlan)] = plan
                }
                if subscription.takesEveryEvent {
                    runs[plan, default: Run(plan: plan)].append(subscription.dataPrefix)
                } else {
                    filtered.append((plan, subscription))
                }
            }
            let connection = Connection(outbox: outbox, runs: Array(runs.values), filtered: filtered)
            loops[ObjectIdentifier(outbox.eventLoop), default: (outbox.eventLoop, [])].connections.append(connection)
        }
        self.eventPlans = eventPlans
        self.loops = loops.values.map { Loop(eventLoop: $0.eventLoop, connections: $0.connections) }
    }
}
