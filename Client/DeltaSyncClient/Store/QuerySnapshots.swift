/// The results of one query as they change, as ``DataStore/observeQuery(for:where:sort:)``
/// returns them: the results now, then after every committed transaction that changed the
/// model, and when it finishes syncing. Stopping the iteration unsubscribes.
///
/// ```swift
/// for try await snapshot in store.observeQuery(for: Post.self, where: Post.keys.rating >= 4) {
///     show(snapshot.items, syncing: !snapshot.isSynced)
/// }
/// ```
public struct QuerySnapshots<M: Model>: AsyncSequence, Sendable {
    public typealias Element = QuerySnapshot<M>

    private let snapshots: AsyncThrowingStream<QuerySnapshot<M>, any Error>

    init(_ snapshots: AsyncThrowingStream<QuerySnapshot<M>, any Error>) {
        self.snapshots = snapshots
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        var snapshots: AsyncThrowingStream<QuerySnapshot<M>, any Error>.AsyncIterator

        /// The next snapshot; `nil` when the store is released. Throws when a query fails.
        public mutating func next() async throws -> QuerySnapshot<M>? {
            try await snapshots.next()
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(snapshots: snapshots.makeAsyncIterator())
    }
}
