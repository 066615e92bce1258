// Combine publishers of the store's async sequences, for apps that observe with Combine (or
// views before Observation). Apple platforms only: Combine does not exist elsewhere. Each one
// wraps one of the store's async sequences and adds nothing to it.
#if canImport(Combine)
import Combine

extension DataStore {
    /// ``observe(_:)`` as a Combine publisher: every change of `M` from now on, delivered on
    /// the store's own threads (add `receive(on:)` for the main queue). Iterating starts on
    /// subscription and stops on cancellation.
    ///
    /// ```swift
    /// #if canImport(Combine)
    /// let subscription = dataStore.changesPublisher(for: Post.self).sink { change in print(change.mutationType, change.model.title) }
    /// subscription.cancel()
    /// #endif
    /// ```
    public func changesPublisher<M: Model>(for type: M.Type) -> AnyPublisher<ModelChange<M>, Never> {
        // Observing changes never fails: the catch only gives the publisher its `Never`.
        SequencePublisher<ModelChange<M>>.of(observe(type)).catch { _ in Empty<ModelChange<M>, Never>() }.eraseToAnyPublisher()
    }

    /// ``observeQuery(for:where:sort:)`` as a Combine publisher: the query's results now, then
    /// after every change of `M`, delivered on the store's own threads. It fails as the
    /// sequence throws.
    ///
    /// ```swift
    /// #if canImport(Combine)
    /// let subscription = dataStore.queryPublisher(for: Post.self, where: Post.keys.rating >= 4)
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { snapshot in print(snapshot.items.count) })
    /// subscription.cancel()
    /// #endif
    /// ```
    public func queryPublisher<M: Model>(
        for type: M.Type, where predicate: QueryPredicate = .all, sort: [QuerySortDescriptor] = []
    ) -> AnyPublisher<QuerySnapshot<M>, any Error> {
        SequencePublisher<QuerySnapshot<M>>.of(observeQuery(for: type, where: predicate, sort: sort))
    }
}

/// Sends an async sequence's elements through a subject, one iteration per subscription.
private final class SequencePublisher<Element: Sendable>: @unchecked Sendable {
    // @unchecked: Combine's subjects lock their own state, so the iterating task may send.
    let subject = PassthroughSubject<Element, any Error>()
    private let iteration = Locked<Task<Void, Never>?>(nil)

    static func of<S: AsyncSequence & Sendable>(_ sequence: S) -> AnyPublisher<Element, any Error> where S.Element == Element {
        Deferred {
            let relay = SequencePublisher()
            // Started once the subject has its subscriber, so the first element is not lost.
            return relay.subject.handleEvents(receiveSubscription: { _ in relay.start(sequence) }, receiveCancel: { relay.stop() })
        }
        .eraseToAnyPublisher()
    }

    private func start<S: AsyncSequence & Sendable>(_ sequence: S) where S.Element == Element {
        let task = Task {
            do {
                for try await element in sequence { self.subject.send(element) }
                self.subject.send(completion: .finished)
            } catch {
                self.subject.send(completion: .failure(error))
            }
        }
        iteration.withLock { $0 = task }
    }

    private func stop() {
        iteration.withLock { $0 }?.cancel()
    }
}
#endif
