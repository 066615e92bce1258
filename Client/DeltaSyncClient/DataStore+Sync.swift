import DeltaSyncCore
import DeltaSyncLocalStore

extension DataStore {
    /// Opens the store for the models of `registry` (the generated `DeltaSyncModels`) and, when
    /// `configuration` names an endpoint, keeps it in step with that backend (see ``start()``).
    ///
    /// When the schema changed since the file was last opened, local data is rebuilt for the
    /// new schema (a full sync follows once sync runs). Pending outbox mutations that still fit
    /// the new schema are kept; the others are removed and reported to the configuration's
    /// `errorHandler`.
    ///
    /// `location` has no default: a syncing store in memory loses its outbox (every change not
    /// yet sent) when the app quits. Apps use ``DataStore/Location/applicationSupport(_:)``;
    /// tests and previews may choose `.inMemory`.
    ///
    /// ```swift
    /// let configuration = DataStoreConfiguration(endpoint: SyncEndpoint(url: URL(string: "http://127.0.0.1:20002/graphql")!, apiKey: "da2-fakeApiId123456"))
    /// let dataStore = try DataStore(models: DeltaSyncModels.self, location: .applicationSupport(), configuration: configuration)
    /// ```
    public convenience init(
        models registry: any ModelRegistry.Type, location: Location, configuration: DataStoreConfiguration
    ) throws(DataStoreError) {
        try self.init(models: StoreModels(registry: registry), location: location, configuration: configuration)
    }

    /// Opens a syncing store for `models`: a generated registry's, or a schema read at run time
    /// (simulated devices save and read items of any schema).
    package convenience init(models: StoreModels, location: Location, configuration: DataStoreConfiguration) throws(DataStoreError) {
        try self.init(models: models, location: location, errorHandler: configuration.errorHandler) { store in
            SyncEngine(store: store, configuration: configuration)
        }
    }

    /// The sync engine, `nil` for a store opened without a ``DataStoreConfiguration``.
    private var engine: SyncEngine? { sync as? SyncEngine }

    // MARK: - Lifecycle

    /// Starts syncing with the configured endpoint and waits until the store is ready: every
    /// model's subscriptions are open, its base or delta sync is done, and the outbox is being
    /// sent. From then on the store follows the backend live until ``stop()``; any other call
    /// starts sync too, without waiting. Without an endpoint the store is local-only and this
    /// does nothing.
    ///
    /// ```swift
    /// let synced = try await dataStore.start()   // [ModelSyncedEvent]: full or delta, per model
    /// ```
    ///
    /// - Returns: what each model's sync did (the last one's, when sync was already running).
    /// - Throws: ``DataStoreError/network(_:)`` when the backend cannot be reached. Sync keeps
    ///   trying in the background with backoff, and pending changes stay in the outbox; the
    ///   ``events`` tell when it succeeds (`.ready`).
    @discardableResult
    public func start() async throws(DataStoreError) -> [ModelSyncedEvent] {
        guard let engine else { return [] }
        return try await engine.start()
    }

    /// Tells sync the app is back: call it when the app returns to the foreground (or when it
    /// knows the network is back). Sync starts if it is not running, a wait between attempts
    /// ends now, and a connected session reconnects and catches up with a delta sync (a
    /// connection that was suspended with the app may be dead without knowing it). The
    /// network path monitor (``DataStoreConfiguration/networkMonitor``) does the same for the
    /// network on its own; local saves wake sync too.
    ///
    /// In SwiftUI, from the app's scene:
    ///
    /// ```swift
    /// // .onChange(of: scenePhase) { _, phase in if phase == .active { dataStore.resume() } }
    /// dataStore.resume()
    /// ```
    public func resume() {
        engine?.resume()
    }

    /// Stops syncing and closes the realtime connection; local data and the outbox stay. The
    /// next call to ``start()`` (or any other call) syncs again, re-evaluating the sync
    /// expressions.
    public func stop() async {
        await sync?.stop()
    }

    /// What sync does from now on, in order: network status, subscriptions, sync queries,
    /// readiness, the outbox and changes received. Subscribe before ``start()`` to see it all.
    /// A store opened without a ``DataStoreConfiguration`` has none: the stream ends at once.
    ///
    /// ```swift
    /// let events = dataStore.events
    /// try await dataStore.save(post)
    /// for await event in events {
    ///     if case .outboxStatus(isEmpty: true) = event { break }   // the post reached the backend
    /// }
    /// ```
    public var events: AsyncStream<DataStoreEvent> {
        guard let engine else { return AsyncStream { $0.finish() } }
        return engine.events.bus.subscribe()
    }

    /// Applies records as the sync engine stores a sync page: for tests and benchmarks that
    /// feed the store without a backend.
    package func applyRemote(_ modelName: String, records: [Item]) async throws(DataStoreError) -> RemoteApplyCounts {
        let remoteApply = engine?.remoteApply ?? RemoteApply(store: store, eventsObserved: { false })
        return try await remoteApply.apply(modelName, records: records)
    }

    /// Applies the answer to a sync query, as its JSON text, as the sync engine stores a sync
    /// page: for tests that compare storing from text with storing items.
    ///
    /// - Returns: the counts, and whether the records were stored from the text (not parsed
    ///   first because the page needed it).
    package func applyRemote(_ modelName: String, syncAnswer text: String) async throws(DataStoreError) -> (RemoteApplyCounts, fromText: Bool) {
        let table = try store.table(modelName)
        guard let field = store.schema.model(named: modelName)?.operations.sync else { throw .unknownModel(modelName) }
        let page = try SyncPage(text, field: field, model: modelName, table: table, expression: .all)
        let remoteApply = engine?.remoteApply ?? RemoteApply(store: store, eventsObserved: { false })
        let counts = try await remoteApply.apply(modelName, page: page.records)
        guard case .text = page.records else { return (counts, false) }
        return (counts, true)
    }
}
