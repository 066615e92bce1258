import DeltaSyncClient
import Foundation

/// Every event a store publishes from the moment the log is made, kept so a test can wait for
/// one that already happened or is still to come.
final class EventLog: @unchecked Sendable {
    struct TimedOut: Error, CustomStringConvertible {
        let waitingFor: String
        let seen: [DataStoreEvent]
        var description: String { "timed out waiting for \(waitingFor); saw \(seen.map { "\($0)" }.suffix(20))" }
    }

    private struct Waiter {
        let from: Int
        let matches: @Sendable (DataStoreEvent) -> Bool
        let continuation: CheckedContinuation<DataStoreEvent, Never>
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

    /// How many events were seen so far: pass it to ``wait(after:for:timeout:_:)`` to wait only
    /// for later ones.
    var count: Int { lock.withLock { seen.count } }

    var events: [DataStoreEvent] { lock.withLock { seen } }

    private func record(_ event: DataStoreEvent) {
        let ready: [CheckedContinuation<DataStoreEvent, Never>] = lock.withLock {
            seen.append(event)
            let matched = waiters.filter { $0.value.matches(event) }
            for id in matched.keys { waiters[id] = nil }
            return matched.values.map(\.continuation)
        }
        for continuation in ready { continuation.resume(returning: event) }
    }

    /// The first event at position `after` or later that `matches` accepts, waiting for it if
    /// needed.
    @discardableResult
    func wait(
        after position: Int = 0, for description: String, timeout: Duration = .seconds(30),
        _ matches: @escaping @Sendable (DataStoreEvent) -> Bool
    ) async throws -> DataStoreEvent {
        let id = UUID()
        return try await withThrowingTaskGroup(of: DataStoreEvent.self) { group in
            group.addTask {
                await withCheckedContinuation { continuation in
                    let found: DataStoreEvent? = self.lock.withLock {
                        if let event = self.seen.dropFirst(position).first(where: matches) { return event }
                        self.waiters[id] = Waiter(from: position, matches: matches, continuation: continuation)
                        return nil
                    }
                    if let found { continuation.resume(returning: found) }
                }
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw TimedOut(waitingFor: description, seen: self.events)
            }
            defer {
                group.cancelAll()
                let abandoned = self.lock.withLock { self.waiters.removeValue(forKey: id) }
                abandoned?.continuation.resume(returning: .ready)
            }
            return try await group.next()!
        }
    }

    func waitUntilReady(after position: Int = 0) async throws {
        try await wait(after: position, for: "ready") { if case .ready = $0 { true } else { false } }
    }

    /// Waits until the outbox was reported empty after `position`.
    func waitForEmptyOutbox(after position: Int = 0) async throws {
        try await wait(after: position, for: "an empty outbox") { if case .outboxStatus(isEmpty: true) = $0 { true } else { false } }
    }
}
