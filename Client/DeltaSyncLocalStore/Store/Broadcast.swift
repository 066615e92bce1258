import Foundation

/// Hands every published element to every subscriber, in publication order.
///
/// The store publishes from its database writer right after each commit, and the writer runs
/// one transaction at a time, so subscribers see changes in commit order. Subscribers never
/// slow the publisher: each has its own unbounded buffer.
package final class Broadcast<Element: Sendable>: Sendable {
    private struct State {
        var subscribers: [UInt64: AsyncStream<Element>.Continuation] = [:]
        var next: UInt64 = 0
        var finished = false
    }

    private let state = Locked(State())

    package init() {}

    /// Every element from now on; the stream ends when the consumer stops iterating or the
    /// broadcast finishes.
    package func subscribe() -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self)
        let id: UInt64? = state.withLock { state in
            guard !state.finished else { return nil }
            state.next += 1
            state.subscribers[state.next] = continuation
            return state.next
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Whether anyone is listening: building elements nobody reads can be skipped.
    package var hasSubscribers: Bool { state.withLock { !$0.subscribers.isEmpty } }

    package func publish(_ element: Element) {
        let subscribers = state.withLock { Array($0.subscribers.values) }
        for subscriber in subscribers { subscriber.yield(element) }
    }

    package func finish() {
        let subscribers = state.withLock { state in
            defer { state.subscribers = [:] }
            state.finished = true
            return Array(state.subscribers.values)
        }
        for subscriber in subscribers { subscriber.finish() }
    }
}
