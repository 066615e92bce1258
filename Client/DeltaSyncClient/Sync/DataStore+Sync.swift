import DeltaSyncCore
import GRDB

extension DataStore {
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

    /// Stops syncing and closes the realtime connection; local data and the outbox stay. The
    /// next call to ``start()`` (or any other call) syncs again, re-evaluating the sync
    /// expressions.
    public func stop() async {
        await engine?.stop()
        syncedModels.withLock { $0 = [] }
    }

    /// Stops syncing and deletes every model, pending mutation and sync state. The next sync is
    /// a full one.
    public func clear() async throws(DataStoreError) {
        await stop()
        heldBack.withLock { $0 = [:] }
        try await write { db in
            for table in self.database.tables.values { try db.execute(sql: "DELETE FROM \(table.quotedName)") }
            try db.execute(sql: "DELETE FROM \(ClientTables.outbox)")
            try ModelSyncMetadata.removeAll(db)
            return []
        }
    }

    /// What sync does from now on, in order: network status, subscriptions, sync queries,
    /// readiness, the outbox and changes received. Subscribe before ``start()`` to see it all.
    ///
    /// ```swift
    /// let events = dataStore.events
    /// try await dataStore.save(post)
    /// for await event in events {
    ///     if case .outboxStatus(isEmpty: true) = event { break }   // the post reached the backend
    /// }
    /// ```
    public var events: AsyncStream<DataStoreEvent> { eventBus.subscribe() }

    // MARK: - Reporting

    /// Announces whether the outbox is empty once the transaction commits: in commit order
    /// with the changes that fill it, so a status never describes an older state than the
    /// events before it.
    func publishOutboxStatus(_ db: Database) throws {
        let isEmpty = try Outbox.isEmpty(db)
        let events = eventBus
        db.afterNextTransaction { _ in events.publish(.outboxStatus(isEmpty: isEmpty)) }
    }

    /// A model's sync finished: its query snapshots are synced from now on.
    func modelSynced(_ modelName: String) {
        syncedModels.withLock { _ = $0.insert(modelName) }
        feed.publish(.synced(modelName: modelName))
    }

    /// Right after a transaction committed, on the writer: observers get changes in commit
    /// order; local changes wake the outbox; remote ones are `syncReceived`.
    func committed(_ changes: [StoredChange]) {
        feed.publish(.committed(changes))
        var local = false
        for change in changes {
            if change.isRemote {
                if eventBus.hasSubscribers { eventBus.publish(.syncReceived(mutationEvent(change))) }
            } else {
                local = true
                if eventBus.hasSubscribers { eventBus.publish(.outboxMutationEnqueued(mutationEvent(change))) }
            }
        }
        if local {
            eventBus.publish(.outboxStatus(isEmpty: false))
            engine?.outboxChanged()
        }
    }

    private func mutationEvent(_ change: StoredChange) -> MutationEvent {
        let modelID = database.schema.model(named: change.modelName).map { ModelIdentifier(of: change.item, in: $0).description } ?? ""
        return MutationEvent(modelName: change.modelName, modelID: modelID, mutationType: change.mutationType, item: change.item)
    }
}
