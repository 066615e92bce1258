import DeltaSyncClient
import Foundation

/// Every event a store publishes from the moment the log is made, kept so a test can wait for
/// events that already happened or are still to come.
///
/// Events reach the log a moment after they are published, so a test never asks "what came
/// after this point"; it asks for an order of events (`wait(for:_:...)`) or for a state of
/// the store that an event announces (`waitForEmptyOutbox`).
final class EventLog: @unchecked Sendable {
    typealias Match = @Sendable (DataStoreEvent) -> Bool

    struct TimedOut: Error, CustomStringConvertible {
        let waitingFor: String
        let seen: [DataStoreEvent]
        var description: String { "timed out waiting for \(waitingFor); the last events were \(seen.suffix(15).map { "\($0)" })" }
    }

    private struct Waiter {
        let isMet: @Sendable ([DataStoreEvent]) -> Bool
        let continuation: CheckedContinuation<Void, Never>
    }

    private let lock = NSLock()
    private var seen: [DataStoreEvent] = []
    private var waiters: [UUID: Waiter] = [:]
    private var task: Task<Void, Never>?

    init(_ store: DataStore) {
        let events = store.events
        task = Task { [weak self] in
            for await event in events { self?.record(event) }
        }
    }

    deinit { task?.cancel() }

    var events: [DataStoreEvent] { lock.withLock { seen } }

    /// How many recorded events `match` accepts.
    func occurrences(_ match: Match) -> Int { lock.withLock { seen.filter(match).count } }

    private func record(_ event: DataStoreEvent) {
        let met: [CheckedContinuation<Void, Never>] = lock.withLock {
            seen.append(event)
            let ready = waiters.filter { $0.value.isMet(seen) }
            for id in ready.keys { waiters[id] = nil }
            return ready.values.map(\.continuation)
        }
        for continuation in met { continuation.resume() }
    }

    /// Waits until the log holds events matching `steps`, in that order (others in between).
    func wait(for description: String, timeout: Duration = .seconds(30), _ steps: Match...) async throws {
        try await wait(for: description, timeout: timeout) { events in
            var remaining = steps[...]
            for event in events where remaining.first?(event) == true { remaining = remaining.dropFirst() }
            return remaining.isEmpty
        }
    }

    /// Waits until `match` accepted `count` events.
    func wait(for description: String, occurrences count: Int, timeout: Duration = .seconds(30), _ match: @escaping Match) async throws {
        try await wait(for: description, timeout: timeout) { events in events.lazy.filter(match).count >= count }
    }

    private func wait(for description: String, timeout: Duration, until isMet: @escaping @Sendable ([DataStoreEvent]) -> Bool) async throws {
        let id = UUID()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                await withCheckedContinuation { continuation in
                    let met = self.lock.withLock {
                        if isMet(self.seen) { return true }
                        self.waiters[id] = Waiter(isMet: isMet, continuation: continuation)
                        return false
                    }
                    if met { continuation.resume() }
                }
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw TimedOut(waitingFor: description, seen: self.events)
            }
            defer {
                group.cancelAll()
                self.lock.withLock { self.waiters.removeValue(forKey: id) }?.continuation.resume()
            }
            try await group.next()
        }
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
