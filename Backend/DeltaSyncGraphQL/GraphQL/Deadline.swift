import NIOConcurrencyHelpers

/// Runs work that must be answered within a time limit.
enum Deadline {
    /// The result of `work`, or `nil` when `limit` passes first. On time-out the work is
    /// cancelled and left to finish in the background: the caller answers at once instead of
    /// waiting for it, as a task group would.
    static func race<T: Sendable>(after limit: Duration, _ work: @escaping @Sendable () async -> T) async -> T? {
        await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
            let state = NIOLockedValueBox<(resumed: Bool, worker: Task<Void, Never>?)>((false, nil))
            @Sendable func finish(_ value: T?) -> Bool {
                let first = state.withLockedValue { state -> Bool in
                    defer { state.resumed = true }
                    return !state.resumed
                }
                if first { continuation.resume(returning: value) }
                return first
            }
            let entry = DeadlineWatch.shared.add(after: limit) {
                guard finish(nil) else { return }
                state.withLockedValue { $0.worker }?.cancel()
            }
            let worker = Task {
                let value = await work()
                DeadlineWatch.shared.remove(entry)
                _ = finish(value)
            }
            state.withLockedValue { $0.worker = worker }
        }
    }
}
