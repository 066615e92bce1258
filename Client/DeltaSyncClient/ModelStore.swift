import DeltaSyncLocalStore

/// What an app's code asks of its store, as a protocol its tests can replace: saves, queries,
/// deletes and the sync lifecycle. ``DataStore`` conforms; a view model that holds
/// `any ModelStore` takes a fake in its unit tests.
///
/// Observation is not part of it: ``DataStore/observe(_:)``, ``DataStore/observeQuery(for:where:sort:)``
/// and ``DataStore/liveQuery(_:where:sort:)`` follow a real store's commits, and a
/// `DataStore(models:location: .inMemory)` is cheap enough for tests that need them.
///
/// ```swift
/// @MainActor final class Drafts {
///     let store: any ModelStore
///     init(store: any ModelStore) { self.store = store }
///     func publish(_ post: Post) async throws {
///         var published = post
///         published.status = .published
///         _ = try await store.save(published, where: nil)
///     }
/// }
/// ```
public protocol ModelStore: AnyObject, Sendable {
    /// Saves `model` if `condition` (when given) holds for the stored one.
    func save<M: Model>(_ model: M, where condition: QueryPredicate?) async throws(DataStoreError) -> M
    /// The models of `type` matching `predicate`, sorted and paginated.
    func query<M: Model>(
        _ type: M.Type, where predicate: QueryPredicate, sort: [QuerySortDescriptor], paginate: QueryPaginationInput?
    ) async throws(DataStoreError) -> [M]
    /// The model of `type` with this `id`, or `nil`.
    func query<M: Model>(_ type: M.Type, byId id: String) async throws(DataStoreError) -> M?
    /// Deletes `model` if `condition` (when given) holds for the stored one.
    func delete<M: Model>(_ model: M, where condition: QueryPredicate?) async throws(DataStoreError)
    /// Deletes the model of `type` with this `id`, if `condition` (when given) holds.
    func delete<M: Model>(_ type: M.Type, withId id: String, where condition: QueryPredicate?) async throws(DataStoreError)
    /// Starts syncing and waits until the store is ready.
    func start() async throws(DataStoreError) -> [ModelSyncedEvent]
    /// Stops syncing; local data stays.
    func stop() async
    /// Tells sync the app is back in the foreground.
    func resume()
    /// Removes every local model, the outbox and the sync state.
    func clear() async throws(DataStoreError)
}

extension DataStore: ModelStore {}
