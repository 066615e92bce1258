import DeltaSyncCore
import DeltaSyncModelSchema
import DeltaSyncSQLite
import GRDB

/// The store behind ``DataStore``: the database, the broadcast of committed changes, and the
/// remote changes held back while a local change of the same item is pending.
///
/// Everything that changes local data goes through ``write(_:)``, which publishes the
/// transaction's changes right after it commits, on the writer, so observers (and the sync
/// layer's commit listener) see changes in commit order. Sync works on this type, never on the
/// façade: it reads and writes through the same transactions and the same broadcast.
package final class LocalStore: Sendable {
    package let database: LocalDatabase
    /// Every committed change, and models finishing their sync, for `observe` and
    /// `observeQuery`.
    package let feed = Broadcast<StoreUpdate>()
    /// The generated type of each model, to hand conflicts to the app as models.
    package let modelTypes: [String: any Model.Type]
    /// Told of every problem that does not fail a call.
    package let errorHandler: @Sendable (DataStoreError) -> Void
    /// Models whose sync finished since sync (re)started: their query snapshots are synced.
    private let syncedModels = Locked(Set<String>())
    /// The newest remote change of each item that arrived while a local change of it was
    /// pending, by model and key.
    private let heldBack = Locked<[String: Item]>([:])
    /// How many times ``clear()`` deleted every row (see ``ObservedRows``).
    private let clearCount = Locked(0)
    /// Called with each committed transaction's changes, after the observers' broadcast.
    private let commitListener = Locked<(@Sendable ([StoredChange]) -> Void)?>(nil)

    /// Opens the database for `models`; the pending mutations a schema change removed are
    /// reported.
    package init(
        models: StoreModels, location: DataStore.Location, errorHandler: @escaping @Sendable (DataStoreError) -> Void
    ) throws(DataStoreError) {
        let dropped: [DataStoreError]
        do {
            (database, dropped) = try LocalDatabase.open(location, models: models)
        } catch {
            throw Self.storeError(error)
        }
        modelTypes = models.types
        self.errorHandler = errorHandler
        for error in dropped { errorHandler(error) }
    }

    deinit {
        feed.finish()
    }

    package var schema: AmplifySchema { database.schema }

    package func table(_ modelName: String) throws(DataStoreError) -> ModelTable {
        try database.table(modelName)
    }

    /// Hands an error that does not fail the call to the error handler.
    package func report(_ error: DataStoreError) {
        errorHandler(error)
    }

    // MARK: - Transactions

    /// Runs `body` in a write transaction and publishes the changes it returns once it
    /// committed.
    package func write(_ body: @escaping @Sendable (Database) throws -> [StoredChange]) async throws(DataStoreError) {
        do {
            try await database.write { db in
                let changes = try body(db)
                // On the writer, right after the commit: observers get changes in commit order.
                if !changes.isEmpty { db.afterNextTransaction { _ in self.committed(changes) } }
            }
        } catch {
            throw Self.storeError(error)
        }
    }

    /// Runs `body` in a read transaction.
    package func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(DataStoreError) -> T {
        do {
            return try await database.read(body)
        } catch {
            throw Self.storeError(error)
        }
    }

    /// Runs `body` in a read transaction on the calling thread, blocking it until a reader is
    /// free: for a first value that must be there when a synchronous call returns.
    package func readNow<T>(_ body: (Database) throws -> T) throws(DataStoreError) -> T {
        do {
            return try database.readNow(body)
        } catch {
            throw Self.storeError(error)
        }
    }

    private static func storeError(_ error: any Error) -> DataStoreError {
        if let error = error as? DataStoreError { return error }
        if let error = error as? AppSyncError { return .storage(error.message) }
        return .storage("\(error)")
    }

    // MARK: - Commits

    /// Sets what is called with every committed transaction's changes (the sync layer, to send
    /// local changes and announce remote ones). Called on the writer: it must not block.
    package func onCommit(_ listener: @escaping @Sendable ([StoredChange]) -> Void) {
        commitListener.withLock { $0 = listener }
    }

    /// Whether anyone reads committed changes: building them for a large sync page can be
    /// skipped otherwise.
    package var hasObservers: Bool { feed.hasSubscribers }

    private func committed(_ changes: [StoredChange]) {
        feed.publish(.committed(changes))
        commitListener.withLock { $0 }?(changes)
    }

    // MARK: - Sync state

    /// A model's sync finished: its query snapshots are synced from now on.
    package func modelSynced(_ modelName: String) {
        syncedModels.withLock { _ = $0.insert(modelName) }
        feed.publish(.synced(modelName: modelName))
    }

    /// Sync stopped: no model counts as synced until it syncs again.
    package func syncStopped() {
        syncedModels.withLock { $0 = [] }
    }

    package func isSynced(_ modelName: String) -> Bool {
        syncedModels.withLock { $0.contains(modelName) }
    }

    // MARK: - Held-back remote changes

    /// Keeps the newest remote change of an item with a pending local mutation, for when that
    /// mutation is done.
    package func holdBack(_ record: Item, model: String, modelID: String) {
        let key = Self.heldBackKey(model, modelID)
        heldBack.withLock { held in
            if (held[key]?["_version"]?.intValue ?? -1) < (record["_version"]?.intValue ?? 0) { held[key] = record }
        }
    }

    /// The held-back change of an item, removed.
    package func takeHeldBack(model: String, modelID: String) -> Item? {
        heldBack.withLock { $0.removeValue(forKey: Self.heldBackKey(model, modelID)) }
    }

    private static func heldBackKey(_ model: String, _ modelID: String) -> String { model + "\u{1F}" + modelID }

    /// Deletes every model, pending mutation, held-back change and sync state; observers are
    /// told (``StoreUpdate/cleared``) once it committed.
    package func clear() async throws(DataStoreError) {
        heldBack.withLock { $0 = [:] }
        syncStopped()
        try await write { db in
            // Counted before the commit: a query that reads the emptied tables sees the count moved.
            self.clearCount.withLock { $0 += 1 }
            for table in self.database.tables.values { try db.execute(sql: "DELETE FROM \(table.quotedName)") }
            try db.execute(sql: "DELETE FROM \(ClientTables.outbox)")
            try ModelSyncMetadata.removeAll(db)
            db.afterNextTransaction { _ in self.feed.publish(.cleared) }
            return []
        }
    }

    /// How many times ``clear()`` deleted every row, counted before each commits.
    package var clears: Int { clearCount.withLock { $0 } }
}
