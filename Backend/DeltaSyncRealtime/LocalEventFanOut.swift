import DeltaSyncGraphQL

/// Fan-out to this process's subscribers.
package struct LocalEventFanOut: EventFanOut {
    let subscribers: SubscriptionRegistry

    package init(subscribers: SubscriptionRegistry) {
        self.subscribers = subscribers
    }

    package func hasSubscribers(for mutation: String) -> Bool {
        subscribers.count(for: mutation) > 0
    }

    package func publish(_ event: MutationEvent) {
        subscribers.deliver(event)
    }
}
