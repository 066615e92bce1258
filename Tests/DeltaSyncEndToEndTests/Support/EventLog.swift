import DeltaSyncClient
import DeltaSyncTesting

/// Every event a store publishes from the moment the log is made, kept so a test can wait for
/// events that already happened or are still to come.
///
/// Events reach the log a moment after they are published, so a test never asks "what came
/// after this point"; it asks for an order of events (`wait(for:_:...)`) or for a state of
/// the store that an event announces (`waitForEmptyOutbox`).
final class EventLog: Sendable {
    typealias Match = @Sendable (DataStoreEvent) -> Bool

    private let waiter: EventWaiter<DataStoreEvent>

    init(_ store: DataStore) {
        waiter = EventWaiter(store.events)
    }

    var events: [DataStoreEvent] { waiter.events }

    /// How many recorded events `match` accepts.
    func occurrences(_ match: Match) -> Int { events.filter(match).count }

    /// Waits until the log holds events matching `steps`, in that order (others in between).
    func wait(for description: String, timeout: Duration = .seconds(30), _ steps: Match...) async throws {
        try await waiter.wait(for: description, timeout: timeout) { events in
            var remaining = steps[...]
            for event in events where remaining.first?(event) == true { remaining = remaining.dropFirst() }
            return remaining.isEmpty
        }
    }

    /// Waits until `match` accepted `count` events.
    func wait(for description: String, occurrences count: Int, timeout: Duration = .seconds(30), _ match: @escaping Match) async throws {
        try await waiter.wait(for: description, occurrences: count, timeout: timeout, match)
    }

    func waitUntilReady() async throws {
        try await wait(for: "ready", Self.ready)
    }

    /// Waits until the store's outbox is empty: everything it held reached the backend.
    func waitForEmptyOutbox(of store: DataStore) async throws {
        while true {
            let announced = occurrences(Self.emptyOutbox)
            if try await store.pendingMutations().isEmpty { return }
            try await wait(for: "an empty outbox", occurrences: announced + 1, Self.emptyOutbox)
        }
    }

    static let ready: Match = { if case .ready = $0 { true } else { false } }
    static let offline: Match = { if case .networkStatus(active: false) = $0 { true } else { false } }
    static let emptyOutbox: Match = { if case .outboxStatus(isEmpty: true) = $0 { true } else { false } }

    /// A change of this model received from the backend.
    static func received(_ modelID: String, _ type: MutationType? = nil, version: Int? = nil) -> Match {
        { event in
            guard case .syncReceived(let change) = event, change.modelID == modelID else { return false }
            return (type == nil || change.mutationType == type) && (version == nil || change.version == version)
        }
    }
}
