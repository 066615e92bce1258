import DeltaSyncCore
import DeltaSyncSQLite
import DeltaSyncSchema
import Foundation
import GRDB

/// An offline-first store of the generated models, on a SQLite database on the device.
///
/// Every call works without a network. Each save or delete writes the model and its outbox
/// entry in one transaction, so a pending change is never lost or sent twice. With an endpoint
/// in its configuration, the store also keeps in step with the backend (see ``start()``).
///
/// ```swift
/// let dataStore = try DataStore(models: DeltaSyncModels.self, location: .file(url))
/// try await dataStore.save(Post(title: "Hello", blogID: blog.id))
/// let drafts = try await dataStore.query(Post.self, where: Post.keys.status == .draft, sort: [.descending(Post.keys.rating)])
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

    let database: LocalDatabase
    let configuration: DataStoreConfiguration
    /// Every committed change, and models finishing their sync, for `observe` and
    /// `observeQuery`.
    let feed = Broadcast<StoreUpdate>()
    /// What ``events`` delivers.
    let eventBus: Broadcast<DataStoreEvent>
    /// The generated type of each model, to hand conflicts to the app as models.
    let modelTypes: [String: any Model.Type]
    /// Models whose sync finished since sync (re)started: their query snapshots are synced.
    let syncedModels = Locked(Set<String>())
    /// The newest remote change of each item that arrived while a local change of it was
    /// pending, by model and key.
    let heldBack = Locked<[String: Item]>([:])
    /// `nil` for a local-only store.
    let engine: SyncEngine?

    /// Opens the store for the models of `registry` (the generated `DeltaSyncModels`).
    ///
    /// When the schema changed since the file was last opened, local data is rebuilt for the
    /// new schema (a full sync follows once sync runs). Pending outbox mutations that still fit
    /// the new schema are kept; the others are removed and reported to the configuration's
    /// `errorHandler`.
    public init(
        models registry: any ModelRegistry.Type, location: Location = .inMemory,
        configuration: DataStoreConfiguration = DataStoreConfiguration()
    ) throws(DataStoreError) {
        do {
            let (database, dropped) = try LocalDatabase.open(location, registry: registry)
            self.database = database
            self.configuration = configuration
            modelTypes = Dictionary(registry.models.map { ($0.modelName, $0) }, uniquingKeysWith: { a, _ in a })
            let eventBus = Broadcast<DataStoreEvent>()
            self.eventBus = eventBus
            engine = configuration.endpoint.map { SyncEngine(endpoint: $0, configuration: configuration, events: eventBus) }
            for error in dropped { configuration.errorHandler(error) }
        } catch let error as DataStoreError {
            throw error
        } catch {
            throw .storage("\(error)")
        }
        engine?.attach(self)
    }

    deinit {
        engine?.cancel()
        feed.finish()
        eventBus.finish()
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
        engine?.ensureStarted()
        // Each of `modelName`, `item` and `identifier` rebuilds its value from the model.
        let modelName = M.modelName
        let table = try database.table(modelName)
        let item = model.item
        let modelID = ModelIdentifier(of: item, in: M.schema).description
        try await write { db in
            // Without a condition only the sync metadata matters; decoding the item would cost
            // more than the write.
            let metadata = try table.metadata(key: item, using: db.cachedStatement(sql: table.selectMetadataByKeySQL))
            let exists = metadata.map { !$0.deleted } ?? false
            if let condition, condition != .all {
                guard exists, let live = try table.fetch(key: item, in: db) else {
                    throw DataStoreError.conditionFailed(model: modelName, reason: "the model does not exist, so no condition can apply")
                }
                guard condition.matches(live) else {
                    throw DataStoreError.conditionFailed(model: modelName, reason: "the stored model does not match \(condition.filterInput.jsonText)")
                }
            }
            var row = item
            var sent = item
            // The sync metadata stays with the row: it is the version the next mutation sends.
            if let metadata {
                row["_version"] = metadata.version.map(JSONValue.int)
                row["_lastChangedAt"] = metadata.lastChangedAt.map(JSONValue.int)
                if let version = metadata.syncedVersion { sent["_version"] = .int(version) }
            }
            try table.put(row, in: db)
            let mutationType: MutationType = exists ? .update : .create
            try Outbox.enqueue(db, model: modelName, modelID: modelID, mutationType: mutationType, item: sent, condition: condition)
            return [StoredChange(modelName: modelName, mutationType: mutationType, item: item, isRemote: false)]
        }
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

    /// Deletes the model with this key (nothing when there is none), cascading as
    /// ``delete(_:where:)-(M,_)``.
    public func delete<M: Model>(
        _ type: M.Type, withIdentifier identifier: ModelIdentifier, where condition: QueryPredicate? = nil
    ) async throws(DataStoreError) {
        engine?.ensureStarted()
        let table = try database.table(M.modelName)
        try await write { db in
            guard let stored = try table.fetch(key: identifier.item, in: db), stored["_deleted"]?.boolValue != true else { return [] }
            if let condition, !condition.matches(stored) {
                throw DataStoreError.conditionFailed(model: M.modelName, reason: "the stored model does not match \(condition.filterInput.jsonText)")
            }
            var changes: [StoredChange] = []
            try self.cascadeDelete(stored, of: M.schema, condition: nil, db, into: &changes)
            return changes
        }
    }

    /// Deletes the model with this `id`.
    public func delete<M: Model>(_ type: M.Type, withId id: String) async throws(DataStoreError) {
        try await delete(type, withIdentifier: ModelIdentifier([(M.schema.primaryKey.partitionField, .string(id))]))
    }

    /// Deletes every model matching `predicate` (and their children); each mutation carries
    /// the predicate as its condition, as Amplify sends a batch delete.
    public func delete<M: Model>(_ type: M.Type, where predicate: QueryPredicate) async throws(DataStoreError) {
        engine?.ensureStarted()
        let table = try database.table(M.modelName)
        try await write { db in
            var changes: [StoredChange] = []
            for item in try self.select(table, where: predicate, sort: [], paginate: nil, db) {
                try self.cascadeDelete(item, of: M.schema, condition: predicate, db, into: &changes)
            }
            return changes
        }
    }

    private func cascadeDelete(
        _ item: Item, of model: ModelSchema, condition: QueryPredicate?, _ db: Database, into changes: inout [StoredChange]
    ) throws {
        for field in model.relationFields {
            guard let relation = field.relation, relation.isConnection,
                let childModel = database.schema.model(named: relation.relatedModel)
            else { continue }
            let childTable = try database.table(childModel.name)
            let match = zip(relation.relatedFields, relation.localFields).reduce(QueryPredicate.all) {
                $0 && .field($1.0, .eq(item[$1.1] ?? .null))
            }
            for child in try select(childTable, where: match, sort: [], paginate: nil, db) {
                try cascadeDelete(child, of: childModel, condition: nil, db, into: &changes)
            }
        }
        let table = try database.table(model.name)
        var tombstone = item
        tombstone["_deleted"] = .bool(true)
        try table.put(tombstone, in: db)
        let identifier = ModelIdentifier(of: item, in: model)
        var sent = identifier.item
        if let version = item["_version"], item["_lastChangedAt"] != nil { sent["_version"] = version }
        let modelID = identifier.description
        let cancelled = try Outbox.enqueue(db, model: model.name, modelID: modelID, mutationType: .delete, item: sent, condition: condition)
        changes.append(StoredChange(modelName: model.name, mutationType: .delete, item: item, isRemote: false))
        // The item never reached the backend. If the backend meanwhile has an item with this key
        // (made elsewhere), the change held back for the pending create is what the device
        // should hold now.
        if cancelled, let held = takeHeldBack(model: model.name, modelID: modelID) {
            try table.put(held, in: db)
            if held["_deleted"]?.boolValue != true {
                changes.append(StoredChange(modelName: model.name, mutationType: .create, item: held, isRemote: true))
            }
        }
    }

    // MARK: - Querying

    /// The model with this key, `nil` when there is none.
    public func query<M: Model>(_ type: M.Type, byIdentifier identifier: ModelIdentifier) async throws(DataStoreError) -> M? {
        engine?.ensureStarted()
        let table = try database.table(M.modelName)
        let item: Item? = try await read { db in
            guard let stored = try table.fetch(key: identifier.item, in: db), stored["_deleted"]?.boolValue != true else { return nil }
            return stored
        }
        return try item.map { item throws(DataStoreError) in try M(item: item) }
    }

    /// The model with this `id`, `nil` when there is none.
    public func query<M: Model>(_ type: M.Type, byId id: String) async throws(DataStoreError) -> M? {
        try await query(type, byIdentifier: ModelIdentifier([(M.schema.primaryKey.partitionField, .string(id))]))
    }

    /// The models matching `predicate`, in `sort` order (storage order without one), one page
    /// when `paginate` is given.
    public func query<M: Model>(
        _ type: M.Type, where predicate: QueryPredicate = .all, sort: [QuerySortDescriptor] = [],
        paginate: QueryPaginationInput? = nil
    ) async throws(DataStoreError) -> [M] {
        engine?.ensureStarted()
        let table = try database.table(M.modelName)
        return try await read { db in
            var models: [M] = []
            try self.select(table, where: predicate, sort: sort, paginate: paginate, db) { row in models.append(try M(row: row)) }
            return models
        }
    }

    /// The rows of `table` matching `predicate`, tombstones left out.
    func select(
        _ table: ModelTable, where predicate: QueryPredicate, sort: [QuerySortDescriptor], paginate: QueryPaginationInput?,
        _ db: Database
    ) throws -> [Item] {
        var items: [Item] = []
        try select(table, where: predicate, sort: sort, paginate: paginate, db) { row in items.append(row.item) }
        return items
    }

    /// Calls `each` with every row of `table` matching `predicate`, tombstones left out.
    func select(
        _ table: ModelTable, where predicate: QueryPredicate, sort: [QuerySortDescriptor], paginate: QueryPaginationInput?,
        _ db: Database, each: (ModelRow) throws -> Void
    ) throws {
        let query = try LocalQuery(table: table, predicate: predicate, sort: sort, paginate: paginate)
        // Prepared once per reader connection and predicate shape: preparing was a twentieth of
        // a thousand-row query. A statement still stepping (a select run from inside another's
        // rows) is not reused.
        var statement = try db.cachedStatement(sql: query.sql)
        if statement.isStepping { statement = try db.makeStatement(sql: query.sql) }
        let rows = try Row.fetchCursor(statement, arguments: StatementArguments(query.arguments))
        let row = ModelRow(table: table, handle: statement.sqliteStatement)
        while try rows.next() != nil { try each(row) }
    }

    // MARK: - Observing

    /// Every change of `M` from now on, local and remote, in commit order.
    public func observe<M: Model>(_ type: M.Type) -> ModelChanges<M> {
        engine?.ensureStarted()
        return ModelChanges(updates: feed.subscribe(), identifier: nil, onError: configuration.errorHandler)
    }

    /// Every change of the model with this key from now on.
    public func observe<M: Model>(_ type: M.Type, identifier: ModelIdentifier) -> ModelChanges<M> {
        engine?.ensureStarted()
        return ModelChanges(updates: feed.subscribe(), identifier: identifier, onError: configuration.errorHandler)
    }

    /// The query's results now, then again after every committed transaction that changed `M`
    /// (a sync page is one), and when `M` finishes syncing (``QuerySnapshot/isSynced``).
    public func observeQuery<M: Model>(
        for type: M.Type, where predicate: QueryPredicate = .all, sort: [QuerySortDescriptor] = []
    ) -> QuerySnapshots<M> {
        engine?.ensureStarted()
        let updates = feed.subscribe()
        return QuerySnapshots(AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    func snapshot() async throws -> QuerySnapshot<M> {
                        let isSynced = self.syncedModels.withLock { $0.contains(M.modelName) }
                        return QuerySnapshot(items: try await self.query(M.self, where: predicate, sort: sort), isSynced: isSynced)
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
        })
    }

    // MARK: - Pending mutations and sync state

    /// The outbox, oldest first.
    ///
    /// A row that cannot be read is left out and given to the error handler; the sender removes
    /// it without sending it.
    public func pendingMutations() async throws(DataStoreError) -> [OutboxMutation] {
        let entries = try await read { db in try Outbox.entries(db) }
        var mutations: [OutboxMutation] = []
        for entry in entries {
            switch entry {
            case .success(let mutation): mutations.append(mutation)
            case .failure(let error): report(error)
            }
        }
        return mutations
    }

    /// The sync state of a model: when it last synced, with which expression; `nil` until it
    /// synced once (and again after a schema change or `clear()`).
    ///
    /// ```swift
    /// if let synced = try await store.syncMetadata(for: Post.self)?.lastSync { print("posts synced at \(synced)") }
    /// ```
    public func syncMetadata<M: Model>(for type: M.Type) async throws(DataStoreError) -> ModelSyncMetadata? {
        try await syncMetadata(named: M.modelName)
    }

    /// ``syncMetadata(for:)`` by model name, for the sync engine.
    func syncMetadata(named modelName: String) async throws(DataStoreError) -> ModelSyncMetadata? {
        try await read { db in try ModelSyncMetadata.fetch(db, model: modelName) }
    }

    /// Hands an error that does not fail the call to the error handler.
    func report(_ error: DataStoreError) {
        configuration.errorHandler(error)
    }

    // MARK: - Transactions

    /// Runs `body` in a write transaction and publishes its changes once it committed.
    func write(_ body: @escaping @Sendable (Database) throws -> [StoredChange]) async throws(DataStoreError) {
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

    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(DataStoreError) -> T {
        do {
            return try await database.read(body)
        } catch {
            throw Self.storeError(error)
        }
    }

    private static func storeError(_ error: any Error) -> DataStoreError {
        if let error = error as? DataStoreError { return error }
        if let error = error as? AppSyncError { return .storage(error.message) }
        return .storage("\(error)")
    }
}
