import DeltaSyncCore

/// The results of one query as they change, as ``DataStore/observeQuery(for:where:sort:)``
/// returns them: the results now, then after every committed transaction that changed the
/// model, and when it finishes syncing. Stopping the iteration unsubscribes.
///
/// ```swift
/// for try await snapshot in dataStore.observeQuery(for: Post.self, where: Post.keys.rating >= 4) {
///     print(snapshot.items.map(\.title), snapshot.isSynced ? "synced" : "syncing")
/// }
/// ```
public struct QuerySnapshots<M: Model>: AsyncSequence, Sendable {
    /// The query's results at one moment.
    public typealias Element = QuerySnapshot<M>

    private let snapshots: AsyncThrowingStream<QuerySnapshot<M>, any Error>

    /// Queries now, then again after every committed transaction that changed `M` and when `M`
    /// finishes syncing.
    init(store: LocalStore, predicate: QueryPredicate, sort: [QuerySortDescriptor]) {
        let updates = store.feed.subscribe()
        snapshots = AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    func snapshot() async throws -> QuerySnapshot<M> {
                        let isSynced = store.isSynced(M.modelName)
                        let items = try await store.query(M.modelName, where: predicate, sort: sort, paginate: nil) { row in try M(row: row) }
                        return QuerySnapshot(items: items, isSynced: isSynced)
                    }
                    continuation.yield(try await snapshot())
                    for await update in updates {
                        switch update {
                        case .committed(let changes):
                            guard changes.contains(where: { $0.modelName == M.modelName }) else { continue }
                        case .synced(let model):
                            guard model == M.modelName else { continue }
                        }
                        continuation.yield(try await snapshot())
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Iterates snapshots as they are taken.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var snapshots: AsyncThrowingStream<QuerySnapshot<M>, any Error>.AsyncIterator

        /// The next snapshot; `nil` when the store is released. Throws when a query fails.
        public mutating func next() async throws -> QuerySnapshot<M>? {
            try await snapshots.next()
        }
    }

    /// An iterator over the snapshots, the first one taken now.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(snapshots: snapshots.makeAsyncIterator())
    }
}
