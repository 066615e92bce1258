import Foundation

/// Hands each committed change to every observer, in commit order.
///
/// Changes are published from the database's writer right after each commit, which runs one
/// transaction at a time, so every observer sees changes in the order they were committed.
final class ChangeFeed: Sendable {
    private struct State {
        var observers: [UInt64: AsyncStream<StoredChange>.Continuation] = [:]
        var next: UInt64 = 0
    }

    private let state = Locked(State())

    /// A stream of every change from now on; it ends when the consumer stops iterating.
    func changes() -> AsyncStream<StoredChange> {
        let (stream, continuation) = AsyncStream.makeStream(of: StoredChange.self)
        let id = state.withLock { state in
            state.next += 1
            state.observers[state.next] = continuation
            return state.next
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.observers.removeValue(forKey: id) }
        }
        return stream
    }

    var hasObservers: Bool { state.withLock { !$0.observers.isEmpty } }

    func publish(_ changes: [StoredChange]) {
        let observers = state.withLock { Array($0.observers.values) }
        for observer in observers {
            for change in changes { observer.yield(change) }
        }
    }

    func finish() {
        let observers = state.withLock { state in
            defer { state.observers = [:] }
            return Array(state.observers.values)
        }
        for observer in observers { observer.finish() }
    }
}
