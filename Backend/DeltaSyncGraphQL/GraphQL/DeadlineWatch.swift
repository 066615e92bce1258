import NIOConcurrencyHelpers

/// One timer for every request's time limit. A timer of its own per request (a task asleep
/// until its limit, woken again to be cancelled when the request is answered first) cost two
/// scheduled jobs and a kernel timer per request; here a request's limit is an entry in a table,
/// added and removed under a lock, and one task sleeps until the earliest entry.
///
/// The task wakes only when that earliest limit passes: with every request under the same limit,
/// entries come in the order they expire, so while requests are answered in time it wakes about
/// once per limit, finds their entries gone, and sleeps until the oldest remaining one. An entry
/// earlier than the one it sleeps for starts a new task for it; the old one ends when it wakes.
///
/// ```swift
/// let watch = DeadlineWatch()
/// let entry = watch.add(after: .seconds(30)) { print("too late") }
/// // ... the work, answered in time:
/// watch.remove(entry)
/// ```
final class DeadlineWatch: Sendable {
    /// The watch of every request of the process.
    static let shared = DeadlineWatch()

    private struct Entry {
        let deadline: ContinuousClock.Instant
        let expire: @Sendable () -> Void
    }

    private struct State {
        var entries: [UInt64: Entry] = [:]
        var lastID: UInt64 = 0
        /// When the current watching task wakes; `nil` when none runs.
        var wake: ContinuousClock.Instant?
        /// The current watching task's number: an earlier one ends when it wakes.
        var generation = 0
    }

    private let state = NIOLockedValueBox(State())

    /// Runs `expire` once `limit` has passed, unless ``remove(_:)`` takes the entry first.
    /// `expire` runs on the watch's task: keep it short.
    func add(after limit: Duration, _ expire: @escaping @Sendable () -> Void) -> UInt64 {
        let deadline = ContinuousClock.now.advanced(by: limit)
        let (id, start) = state.withLockedValue { state -> (UInt64, Int?) in
            state.lastID += 1
            state.entries[state.lastID] = Entry(deadline: deadline, expire: expire)
            if let wake = state.wake, wake <= deadline { return (state.lastID, nil) }
            state.wake = deadline
            state.generation += 1
            return (state.lastID, state.generation)
        }
        if let start { Task { await self.watch(generation: start) } }
        return id
    }

    /// Takes an entry away before it expires; an entry that expired already is gone.
    func remove(_ id: UInt64) {
        state.withLockedValue { _ = $0.entries.removeValue(forKey: id) }
    }

    /// How many entries wait: for tests.
    var count: Int { state.withLockedValue { $0.entries.count } }

    private func watch(generation: Int) async {
        while true {
            let (expired, wake) = state.withLockedValue { state -> ([Entry], ContinuousClock.Instant?) in
                guard state.generation == generation else { return ([], nil) }
                let now = ContinuousClock.now
                var expired: [UInt64] = []
                var next: ContinuousClock.Instant?
                for (id, entry) in state.entries {
                    if entry.deadline <= now {
                        expired.append(id)
                    } else if next.map({ entry.deadline < $0 }) ?? true {
                        next = entry.deadline
                    }
                }
                state.wake = next
                return (expired.compactMap { state.entries.removeValue(forKey: $0) }, next)
            }
            for entry in expired { entry.expire() }
            guard let wake else { return }
            try? await Task.sleep(until: wake, clock: .continuous)
        }
    }
}
