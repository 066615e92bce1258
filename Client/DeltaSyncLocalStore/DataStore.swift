import DeltaSyncCore
import Foundation

/// An offline-first store of the generated models, on a SQLite database on the device.
///
/// Every call works without a network. Each save or delete writes the model and its outbox
/// entry in one transaction, so a pending change is never lost or sent twice. Opened with a
/// ``DataStoreConfiguration`` that names an endpoint (the `DeltaSyncClient` library), the store
/// also keeps in step with the backend.
///
/// ```swift
/// let dataStore = try DataStore(models: DeltaSyncModels.self, location: .file(url))
/// try await dataStore.save(Post(blogID: blog.id, title: "Hello"))
/// let drafts = try await dataStore.query(Post.self, where: Post.keys.status == PostStatus.draft, sort: [.descending(Post.keys.rating)])
/// for await change in dataStore.observe(Post.self) { print(change.mutationType, change.model.title) }
/// ```
public final class DataStore: Sendable {
    /// Where the database lives.
    public enum Location: Sendable {
        /// A SQLite file (created with its folder), in WAL mode.
        case file(URL)
        /// Memory only: gone when the `DataStore` is.
        case inMemory
    }

    /// The database, its change broadcast and held-back remote changes.
    package let store: LocalStore
    /// What keeps the store in step with a backend; `nil` for a local-only store.
    package let sync: (any AttachedSync)?

    /// Opens a local-only store for the models of `registry` (the generated `DeltaSyncModels`).
    ///
    /// When the schema changed since the file was last opened, local data is rebuilt for the
    /// new schema. Pending outbox mutations that still fit the new schema are kept; the others
    /// are removed and reported to `errorHandler`.
    ///
    /// - Parameter errorHandler: told of every problem that does not fail a call.
    public convenience init(
        models registry: any ModelRegistry.Type, location: Location = .inMemory,
        errorHandler: @escaping @Sendable (DataStoreError) -> Void = { _ in }
    ) throws(DataStoreError) {
        try self.init(models: StoreModels(registry: registry), location: location, errorHandler: errorHandler, sync: { _ in nil })
    }

    /// Opens the store and attaches what `sync` builds over it.
    package init(
        models: StoreModels, location: Location, errorHandler: @escaping @Sendable (DataStoreError) -> Void,
        sync: (LocalStore) -> (any AttachedSync)?
    ) throws(DataStoreError) {
        store = try LocalStore(models: models, location: location, errorHandler: errorHandler)
        self.sync = sync(store)
    }

    deinit {
        sync?.cancel()
    }

    // MARK: - Saving

    /// Creates or updates `model`.
    ///
    /// - Parameter condition: checked against the stored model before writing, and sent with
    ///   the mutation so the backend checks it too. A condition on a model that does not exist
    ///   yet fails.
    /// - Throws: ``DataStoreError/conditionFailed(model:reason:)`` when the condition is not met.
    @discardableResult
    public func save<M: Model>(_ model: M, where condition: QueryPredicate? = nil) async throws(DataStoreError) -> M {
        sync?.ensureStarted()
        try await store.save(model.item, of: M.schema, where: condition)
        return model
    }

    // MARK: - Deleting

    /// Deletes `model` and, first, its `@hasMany` children, recursively. Each deleted model
    /// gets its own outbox entry, children before parents.
    ///
    /// - Parameter condition: checked locally against the stored model (not sent, as Amplify).
    public func delete<M: Model>(_ model: M, where condition: QueryPredicate? = nil) async throws(DataStoreError) {
        try await delete(M.self, withIdentifier: model.identifier, where: condition)
    }

    /// Deletes every model matching `predicate` (and their children); each mutation carries
    /// the predicate as its condition, as Amplify sends a batch delete.
    public func delete<M: Model>(_ type: M.Type, where predicate: QueryPredicate) async throws(DataStoreError) {
        sync?.ensureStarted()
        try await store.delete(M.schema, where: predicate)
    }

    // MARK: - Querying

    /// The models matching `predicate`, in `sort` order (storage order without one), one page
    /// when `paginate` is given.
    public func query<M: Model>(
        _ type: M.Type, where predicate: QueryPredicate = .all, sort: [QuerySortDescriptor] = [],
        paginate: QueryPaginationInput? = nil
    ) async throws(DataStoreError) -> [M] {
        sync?.ensureStarted()
        return try await store.query(M.modelName, where: predicate, sort: sort, paginate: paginate) { row in try M(row: row) }
    }

    // MARK: - Observing

    /// Every change of `M` from now on, local and remote, in commit order.
    public func observe<M: Model>(_ type: M.Type) -> ModelChanges<M> {
        sync?.ensureStarted()
        return ModelChanges(updates: store.feed.subscribe(), identifier: nil, onError: store.errorHandler)
    }

    /// The query's results now, then again after every committed transaction that changed `M`
    /// (a sync page is one), after ``clear()``, and when `M` finishes syncing
    /// (``QuerySnapshot/isSynced``). Each snapshot after the first decodes only the rows that
    /// changed since the one before.
    public func observeQuery<M: Model>(
        for type: M.Type, where predicate: QueryPredicate = .all, sort: [QuerySortDescriptor] = []
    ) -> QuerySnapshots<M> {
        sync?.ensureStarted()
        return QuerySnapshots(store: store, predicate: predicate, sort: sort)
    }

    /// A query's results as an `@Observable` value a SwiftUI view reads: ``LiveQuery/items``
    /// holds the results when this returns, then follows every change that alters them.
    ///
    /// The first results are read on the calling thread, so the first frame shows them (see
    /// ``LiveQuery`` for why, and what it costs). Updates come from the same snapshots as
    /// ``observeQuery(for:where:sort:)``; one that does not change the results changes nothing.
    /// Releasing the query stops them.
    ///
    /// ```swift
    /// @MainActor func showDrafts() {
    ///     let drafts = dataStore.liveQuery(Post.self, where: Post.keys.status == PostStatus.draft, sort: [.descending(Post.keys.rating)])
    ///     print(drafts.items.map(\.title), drafts.isSynced)
    /// }
    /// ```
    @MainActor
    public func liveQuery<M: Model & Equatable>(
        _ type: M.Type, where predicate: QueryPredicate = .all, sort: [QuerySortDescriptor] = []
    ) -> LiveQuery<M> {
        sync?.ensureStarted()
        return LiveQuery(predicate: predicate, sort: sort) { [store] predicate, sort in
            QuerySnapshots<M>.startingNow(store: store, predicate: predicate, sort: sort)
        }
    }

    // MARK: - Pending mutations and sync state

    /// The outbox, oldest first.
    ///
    /// A row that cannot be read is left out and given to the error handler; the sender removes
    /// it without sending it.
    public func pendingMutations() async throws(DataStoreError) -> [OutboxMutation] {
        try await store.pendingMutations()
    }

    /// The sync state of a model: when it last synced, with which expression; `nil` until it
    /// synced once (and again after a schema change or `clear()`).
    ///
    /// ```swift
    /// if let synced = try await dataStore.syncMetadata(for: Post.self)?.lastSync { print("posts synced at \(synced)") }
    /// ```
    public func syncMetadata<M: Model>(for type: M.Type) async throws(DataStoreError) -> ModelSyncMetadata? {
        try await store.syncMetadata(M.modelName)
    }

    /// Stops syncing and deletes every model, pending mutation and sync state. The next sync is
    /// a full one. Query snapshots and live queries show the emptied store.
    public func clear() async throws(DataStoreError) {
        await sync?.stop()
        try await store.clear()
    }
}

/// What runs on top of a ``DataStore`` to keep it in step with a backend (the `DeltaSyncClient`
/// library's sync engine). The store tells it when it is used and when it goes away.
package protocol AttachedSync: AnyObject, Sendable {
    /// The store was used: start syncing if it is not running, without waiting.
    func ensureStarted()
    /// Stop syncing and wait until it has stopped.
    func stop() async
    /// The store is going away: stop without waiting.
    func cancel()
}
