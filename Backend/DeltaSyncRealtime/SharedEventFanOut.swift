import DeltaSyncCore
import DeltaSyncGraphQL
import DeltaSyncStorage
import Logging
import ServiceLifecycle

/// Fan-out to the subscribers of every server process on a shared store (PostgreSQL): events go
/// to this process's subscribers at once, and through the store's ``InstanceChannel`` to the
/// other processes, which hand them to their own ``SubscriptionRegistry``.
///
/// Run it as a service of the server (``run()``): it sends and receives while it runs.
///
/// ```swift
/// let fanOut = SharedEventFanOut(subscribers: registry, channel: store.instanceChannel(named: "events"))
/// let executor = RequestExecutor(schema: schema, events: fanOut, logger: logger)
/// // services: [application, fanOut]
/// ```
///
/// Order and duplicates: each process receives another's events in the order it published them,
/// each once (the channel's promise), and the registry drops an event older than one already
/// delivered for the same item, so every subscriber sees an item's versions in increasing order
/// whichever process wrote them.
package struct SharedEventFanOut: EventFanOut, Service {
    let subscribers: SubscriptionRegistry
    let channel: any InstanceChannel
    let logger: Logger

    package init(subscribers: SubscriptionRegistry, channel: any InstanceChannel, logger: Logger) {
        self.subscribers = subscribers
        self.channel = channel
        self.logger = logger
    }

    /// Always: another process may have subscribers this one does not know of.
    package func hasSubscribers(for mutation: String) -> Bool { true }

    package func publish(_ event: MutationEvent) {
        subscribers.deliver(event)
        channel.send(event.wireText)
    }

    /// Sends and receives until the server shuts down.
    package func run() async throws {
        let (subscribers, logger) = (self.subscribers, self.logger)
        try? await cancelWhenGracefulShutdown {
            await channel.run { text in
                guard let event = MutationEvent(wireText: text) else {
                    logger.warning("an event from another instance could not be read", metadata: ["text": "\(text.prefix(120))"])
                    return
                }
                subscribers.deliver(event)
            }
        }
    }

    /// Returns once events from the other processes arrive (or after `limit`, `false` then).
    package func waitUntilReceiving(limit: Duration) async -> Bool {
        await channel.waitUntilReceiving(limit: limit)
    }
}

extension MutationEvent {
    /// The event as the processes send it: `{"m": mutation, "d": data, "k": itemKey, "v": version}`.
    var wireText: String {
        var object: [String: JSONValue] = ["m": .string(mutation), "d": data]
        if let itemKey { object["k"] = .string(itemKey) }
        if let version { object["v"] = .int(version) }
        return JSONValue.object(object).jsonText
    }

    init?(wireText: String) {
        guard let value = try? JSONValue(parsing: wireText), let mutation = value["m"].stringValue else { return nil }
        self.init(mutation: mutation, data: value["d"], itemKey: value["k"].stringValue, version: value["v"].intValue)
    }
}
