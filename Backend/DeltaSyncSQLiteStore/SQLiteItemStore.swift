import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncStorage
import Foundation
import GRDB

/// An ``ItemStore`` in one SQLite database (through GRDB): a table per model, a column per
/// stored field plus the sync metadata, a SQL index per model index.
///
/// Open it with the schema whose models it stores. Opening an existing file adds what the
/// schema gained (tables, columns, indexes) and never drops stored values.
///
/// ```swift
/// let store = try SQLiteItemStore(location: .file("data/app.sqlite"), schema: schema)
/// try await store.write { tx in
///     try tx.put(post, ["id": "1", "title": "Hello", "_version": 1])
/// }
/// let page = try await store.read { tx in
///     try tx.query(post, ItemQuery(filter: .field("title", .beginsWith("He")), limit: 50))
/// }
/// ```
///
/// Writes are serialised; reads of a file database run concurrently with them and with each
/// other, each on one snapshot.
///
/// The same database holds the sync log (``SyncLogWriter``, ``SyncLogReader``): the change
/// clock, the delta log indexed by model and change time, and the latest 10,000 conflict
/// records; ``purgeExpired(deltasBefore:tombstonesExpiredBy:)`` removes old deltas and
/// tombstones.
public final class SQLiteItemStore: ItemStore {
    /// Where the database lives.
    public enum Location: Sendable, Equatable {
        /// A database file; its parent directory is created if missing.
        case file(String)
        /// A private database in memory, gone when the store is released.
        case inMemory
    }

    /// What a write that returned survives.
    public enum Durability: Sendable, Equatable {
        /// The process being killed (`kill -9`, a crash). SQLite's WAL with
        /// `synchronous = NORMAL`: a commit is in the operating system's hands when it returns,
        /// and the OS writes it out even though the process is gone. Only a power loss or OS
        /// crash can lose the last commits (never corrupting the file). Fast: no fsync per write.
        case processCrash
        /// Power loss too: `synchronous = FULL` syncs the WAL to disk at every commit.
        case powerLoss
    }

    /// Store settings, with defaults fit for a local server.
    public struct Configuration: Sendable, Equatable {
        /// Default ``Durability/processCrash``.
        public var durability: Durability

        public init(durability: Durability = .processCrash) {
            self.durability = durability
        }
    }

    /// The schema the store was opened with.
    public let schema: AmplifySchema
    private let writer: any DatabaseWriter
    private let catalog: TableCatalog

    // MARK: - Opening

    /// Opens (creating if needed) the database and brings its tables in line with `schema`.
    ///
    /// ```swift
    /// let store = try SQLiteItemStore(location: .inMemory, schema: schema)
    /// ```
    ///
    /// - Throws: ``AppSyncError`` when the schema cannot be stored (a key naming a field the
    ///   model does not store, model names equal but for case) or the file was written by a
    ///   newer DeltaSync; GRDB's `DatabaseError` when SQLite cannot open the file; a file
    ///   system error when the parent directory cannot be created.
    public init(location: Location, schema: AmplifySchema, configuration: Configuration = Configuration()) throws {
        self.schema = schema
        let catalog = try TableCatalog(schema)
        self.catalog = catalog

        var config = GRDB.Configuration()
        config.label = "DeltaSync"
        // Another process (a second server on the same file) waits instead of failing at once.
        config.busyMode = .timeout(5)
        switch location {
        case .inMemory:
            writer = try DatabaseQueue(configuration: config)
        case .file(let path):
            let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            // A pool opens in WAL mode and sets `synchronous = NORMAL` on its writer itself.
            let pool = try DatabasePool(path: path, configuration: config)
            if configuration.durability == .powerLoss {
                try pool.writeWithoutTransaction { try $0.execute(sql: "PRAGMA synchronous = FULL") }
            }
            writer = pool
        }
        try writer.write { db in
            try TableMigrator(tables: catalog.tables.values.sorted { $0.name < $1.name }).migrate(db)
        }
    }

    // MARK: - Transactions

    /// Runs `body` on one consistent snapshot. Do not keep the transaction beyond `body`.
    public func read<T: Sendable>(_ body: @Sendable (any ItemReadTransaction) throws -> T) async throws -> T {
        let catalog = self.catalog
        return try await writer.read { db in
            try body(SQLiteTransaction(db: db, catalog: catalog))
        }
    }

    /// The item with `key`, read by one statement outside any transaction: SQLite runs a lone
    /// statement on one snapshot of its own, and GRDB prepares a transaction's `BEGIN` and
    /// `COMMIT` anew each time, which cost more than the read.
    public func get(_ model: ModelSchema, key: Item) async throws -> Item? {
        let catalog = self.catalog
        return try await writer.unsafeRead { db in
            try catalog.table(for: model).fetch(key: key, in: db)
        }
    }

    /// Runs `body` in a write transaction, after every earlier write. Committed (and durable
    /// as ``Configuration/durability`` says) when this returns; rolled back if `body` throws.
    public func write<T: Sendable>(_ body: @Sendable (any ItemWriteTransaction) throws -> T) async throws -> T {
        let catalog = self.catalog
        return try await writer.write { db in
            try body(SQLiteTransaction(db: db, catalog: catalog))
        }
    }

    // MARK: - Expiry

    /// Deletes deltas changed before `deltasBefore` (epoch ms) and tombstones whose `_ttl` is at
    /// or before `tombstonesExpiredBy` (epoch seconds), in write transactions of at most 500
    /// rows each, so mutations run between them. Live items and unexpired tombstones stay.
    ///
    /// ```swift
    /// let now = Date().timeIntervalSince1970
    /// let purged = try await store.purgeExpired(
    ///     deltasBefore: Int(now * 1000) - 30 * 60_000, tombstonesExpiredBy: Int(now))
    /// ```
    public func purgeExpired(deltasBefore: Int, tombstonesExpiredBy: Int) async throws -> PurgeResult {
        var result = PurgeResult(deltas: 0, tombstones: 0)
        // Deltas of every model in the log, including models the schema no longer has.
        var model = ""
        while let next = try await writer.read({ [model] db in try ExpiryPurge.deltaModel(after: model, db) }) {
            result.deltas += try await purgeInBatches { db in
                try ExpiryPurge.deleteDeltas(of: next, before: deltasBefore, db)
            }
            model = next
        }
        for table in catalog.tables.values.sorted(by: { $0.name < $1.name }) {
            result.tombstones += try await purgeInBatches { db in
                try ExpiryPurge.deleteTombstones(of: table, expiredBy: tombstonesExpiredBy, db)
            }
        }
        return result
    }

    // MARK: - Checkpoints

    /// An in-memory copy of the database, made and put back with SQLite's backup API: pages
    /// are copied, so no item is decoded or encoded either way.
    struct Checkpoint: StoreCheckpoint {
        let copy: DatabaseQueue
    }

    public func checkpoint() async throws -> any StoreCheckpoint {
        let copy = try DatabaseQueue()
        try writer.backup(to: copy)
        return Checkpoint(copy: copy)
    }

    public func restore(_ checkpoint: any StoreCheckpoint) async throws {
        guard let checkpoint = checkpoint as? Checkpoint else {
            throw AppSyncError(.badRequest, "This checkpoint was not made by a SQLite store; restore it into the store that made it.")
        }
        try await replace(with: checkpoint.copy)
    }

    /// `VACUUM INTO`: a compact copy of one consistent state, written by SQLite itself.
    public func export(toFile path: String) async throws {
        try await writer.writeWithoutTransaction { db in try db.execute(sql: "VACUUM INTO ?", arguments: [path]) }
    }

    public func restore(fromFile path: String) async throws {
        let source: DatabaseQueue
        do {
            source = try ImportedDatabase.open(path)
            try await source.read { db in _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") }
        } catch {
            throw AppSyncError(.badRequest, "Snapshot: this is not a SQLite database (\(error)).")
        }
        // Damage and objects the migrations never made (triggers, views) are refused before
        // a page is copied: they would run inside the store from then on.
        let objects = try await writer.read { db in try ImportedDatabase.SchemaObject.all(db) }
        try await ImportedDatabase.check(source, against: objects)
        let tables = catalog.tables.values.map(\.name) + SyncLogTables.names
        let ours = try await writer.read { db in try Self.columns(of: tables, db) }
        let theirs = try await source.read { db in try Self.columns(of: tables, db) }
        for table in tables.sorted() where ours[table] != theirs[table] {
            throw AppSyncError(
                .badRequest,
                theirs[table] == nil
                    ? "Snapshot: the file has no table \(table); it was exported from a server with another schema."
                    : "Snapshot: the file's \(table) has other columns than this server's; it was exported from a server with another schema.")
        }
        try await replace(with: source)
    }

    /// Each table's column names, in order (absent tables left out).
    private static func columns(of tables: [String], _ db: Database) throws -> [String: [String]] {
        var columns: [String: [String]] = [:]
        for table in tables where try db.tableExists(table) {
            columns[table] = try db.columns(in: table).map(\.name)
        }
        return columns
    }

    /// Copies `source`'s pages over the database (SQLite's backup API), then moves the change
    /// clock back up to where it was.
    private func replace(with source: DatabaseQueue) async throws {
        let before = try await writer.read { db in try Int.fetchOne(db, sql: SyncLogTables.clockSQL) ?? 0 }
        try source.backup(to: writer)
        try await writer.write { db in
            try db.execute(sql: "UPDATE deltasync_clock SET last = max(last, ?)", arguments: [before])
        }
    }

    /// Runs `batch` in one write transaction after another until it deletes less than a full
    /// batch; returns the total deleted.
    private func purgeInBatches(_ batch: @escaping @Sendable (Database) throws -> Int) async throws -> Int {
        var total = 0
        while true {
            let deleted = try await writer.write(batch)
            total += deleted
            if deleted < ExpiryPurge.batchSize { return total }
        }
    }
}
