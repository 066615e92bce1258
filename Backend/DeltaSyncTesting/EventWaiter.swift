import NIOConcurrencyHelpers

/// Keeps every event of an asynchronous sequence (a DataStore's events, a realtime client's
/// messages) and lets a test wait until the ones it expects have arrived: no sleeps, and a
/// failure that says what was awaited and what came instead.
///
/// ```swift
/// let events = EventWaiter(store.events)
/// try await store.save(post)
/// try await events.wait(for: "the outbox to send the post") { event in
///     if case .outboxMutationProcessed(let id, _) = event { return id == post.id }
///     return false
/// }
/// ```
public final class EventWaiter<Event: Sendable>: Sendable {
    public struct TimedOut: Error, CustomStringConvertible {
        public let awaited: String
        public let received: [Event]
        public var description: String {
            "Timed out waiting for \(awaited); \(received.count) events arrived, the last ones: \(received.suffix(15).map { "\($0)" })"
        }
    }

    private struct State {
        var events: [Event] = []
        var waiters: [(id: Int, check: @Sendable ([Event]) -> Bool, resume: CheckedContinuation<Void, Never>)] = []
        var nextID = 0
    }

    private let state = NIOLockedValueBox(State())
    private let task: NIOLockedValueBox<Task<Void, Never>?> = NIOLockedValueBox(nil)

    /// Starts collecting `events`; it stops when the sequence ends or the waiter is released.
    public init<S: AsyncSequence & Sendable>(_ events: S) where S.Element == Event {
        let state = self.state
        task.withLockedValue {
            $0 = Task {
                do {
                    for try await event in events { Self.record(event, in: state) }
                } catch {}
            }
        }
    }

    deinit {
        task.withLockedValue { $0?.cancel() }
    }

    /// Every event so far, in order.
    public var events: [Event] { state.withLockedValue { $0.events } }

    /// Waits until `count` events so far match `match`.
    ///
    /// - Throws: ``TimedOut`` naming `description` and the events that did arrive.
    public func wait(
        for description: String, occurrences count: Int = 1, timeout: Duration = .seconds(30),
        _ match: @escaping @Sendable (Event) -> Bool
    ) async throws {
        try await wait(for: description, timeout: timeout) { events in events.filter(match).count >= count }
    }

    /// Waits until `condition` holds for the events so far.
    public func wait(
        for description: String, timeout: Duration = .seconds(30), until condition: @escaping @Sendable ([Event]) -> Bool
    ) async throws {
        let satisfied = await withTaskGroup(of: Bool.self) { group in
            group.addTask { await self.satisfy(condition) }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        guard satisfied else { throw TimedOut(awaited: description, received: events) }
    }

    /// Returns once `condition` holds; never, if it never does (the caller's timeout ends it).
    private func satisfy(_ condition: @escaping @Sendable ([Event]) -> Bool) async -> Bool {
        let id = state.withLockedValue { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready = state.withLockedValue { state -> Bool in
                    // Cancelled before this waiter was listed: its handler found nothing to resume.
                    if condition(state.events) || Task.isCancelled { return true }
                    state.waiters.append((id, condition, continuation))
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            let removed = state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index).resume
            }
            removed?.resume()
        }
        return !Task.isCancelled
    }

    private static func record(_ event: Event, in state: NIOLockedValueBox<State>) {
        let ready = state.withLockedValue { state -> [CheckedContinuation<Void, Never>] in
            state.events.append(event)
            let events = state.events
            var met: [CheckedContinuation<Void, Never>] = []
            state.waiters.removeAll { waiter in
                guard waiter.check(events) else { return false }
                met.append(waiter.resume)
                return true
            }
            return met
        }
        for continuation in ready { continuation.resume() }
    }
}
