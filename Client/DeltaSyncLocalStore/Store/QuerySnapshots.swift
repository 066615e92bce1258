import DeltaSyncCore

/// The results of one query as they change, as ``DataStore/observeQuery(for:where:sort:)``
/// returns them: the results now, then after every committed transaction that changed the
/// model, after ``DataStore/clear()``, and when it finishes syncing. Stopping the iteration
/// unsubscribes.
///
/// Every snapshot runs the query in full, so SQLite decides which models match and in which
/// order; after the first, only the rows that changed are decoded.
///
/// ```swift
/// for try await snapshot in dataStore.observeQuery(for: Post.self, where: Post.keys.rating >= 4) {
///     print(snapshot.items.map(\.title), snapshot.isSynced ? "synced" : "syncing")
/// }
/// ```
///
/// ``LiveQuery`` follows the same snapshots for SwiftUI.
public struct QuerySnapshots<M: Model>: AsyncSequence, Sendable {
    /// The query's results at one moment.
    public typealias Element = QuerySnapshot<M>

    private let snapshots: AsyncThrowingStream<QuerySnapshot<M>, any Error>

    /// Queries now, then again after every committed transaction that changed `M` and when `M`
    /// finishes syncing.
    init(store: LocalStore, predicate: QueryPredicate, sort: [QuerySortDescriptor]) {
        self.init(store: store, updates: store.feed.subscribe(), predicate: predicate, sort: sort, after: nil)
    }

    /// The first snapshot taken on the calling thread, and the snapshots after it.
    ///
    /// The sequence subscribes to the store's changes before the first snapshot is read, so a
    /// change committed in between is in a later snapshot, never lost.
    package static func startingNow(
        store: LocalStore, predicate: QueryPredicate, sort: [QuerySortDescriptor]
    ) -> (first: Result<QuerySnapshot<M>, DataStoreError>, later: QuerySnapshots<M>) {
        let updates = store.feed.subscribe()
        let isSynced = store.isSynced(M.modelName)
        let first = Result { () throws(DataStoreError) in try store.observedQueryNow(M.self, where: predicate, sort: sort) }
        let later = QuerySnapshots(store: store, updates: updates, predicate: predicate, sort: sort, after: (try? first.get()) ?? ObservedRows())
        return (first.map { QuerySnapshot(items: $0.items, isSynced: isSynced, rowids: $0.rowids) }, later)
    }

    /// Takes a snapshot first unless given the rows of one (`after`), then one after every
    /// update of `updates` that concerns `M`, each reusing the models of the rows the last one
    /// read that did not change (``ObservedRows``).
    private init(
        store: LocalStore, updates: AsyncStream<StoreUpdate>, predicate: QueryPredicate, sort: [QuerySortDescriptor],
        after first: ObservedRows<M>?
    ) {
        snapshots = AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    func snapshot(reusing rows: ObservedRows<M>?) async throws -> (ObservedRows<M>, QuerySnapshot<M>) {
                        let isSynced = store.isSynced(M.modelName)
                        let rows = try await store.observedQuery(M.self, where: predicate, sort: sort, reusing: rows)
                        return (rows, QuerySnapshot(items: rows.items, isSynced: isSynced, rowids: rows.rowids))
                    }
                    var rows: ObservedRows<M>
                    if let first {
                        rows = first
                    } else {
                        let (read, taken) = try await snapshot(reusing: nil)
                        rows = read
                        continuation.yield(taken)
                    }
                    for await update in updates where Self.concernsModel(update) {
                        let (read, taken) = try await snapshot(reusing: rows)
                        rows = read
                        continuation.yield(taken)
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Whether `update` may change the query's results or its ``QuerySnapshot/isSynced``.
    private static func concernsModel(_ update: StoreUpdate) -> Bool {
        switch update {
        case .committed(let changes): changes.contains { $0.modelName == M.modelName }
        case .synced(let model): model == M.modelName
        case .cleared: true
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
