import DeltaSyncCore
import DeltaSyncSQLite
import DeltaSyncModelSchema
import Foundation
import GRDB

/// The device's SQLite database: one table per model (``ModelTable``, the layout the server
/// uses, whose `_version`, `_deleted` and `_lastChangedAt` columns are the per-item sync
/// metadata) plus the outbox and per-model sync metadata, all written in one transaction per
/// change.
package struct LocalDatabase: Sendable {
    let writer: any DatabaseWriter
    package let tables: [String: ModelTable]
    package let schema: AmplifySchema
    /// Runs transactions on the calling thread or through GRDB's queue (see its rule).
    let access: DatabaseAccess
    /// Moves the write-ahead log's checkpoints off the committing thread; `nil` in memory.
    let checkpoints: WALCheckpoints?

    /// The most of the file that is memory-mapped; SQLite maps only what the file holds.
    static let memoryMapSize = 256 << 20

    /// WAL frames (pages) written before a checkpoint copies them into the database file.
    ///
    /// A sync page of 1,000 items dirties about 200 pages, so with SQLite's default of 1,000
    /// every fifth page paid for a checkpoint and its two `fsync`s, copying the same hot index
    /// pages each time; 4,000 made applying sync pages about a tenth faster. Up to 4,062 frames
    /// fit the first block of the WAL index, so finding a page in the WAL almost never searches
    /// a second block (a larger interval made saves slower).
    static let checkpointFrames = 4_000

    /// The revision of the tables' layout, stored with the schema's version: 2 is
    /// ``ModelTable/Layout/rowid``, 1 (unnamed) was ``ModelTable/Layout/clusteredByKey``.
    static let layoutRevision = 2

    /// Opens (or creates) the database and brings it in line with the schema. When the schema
    /// changed since the last open, local data is rebuilt; outbox mutations that still fit are
    /// kept (their items stay visible), the others are returned to be reported.
    static func open(
        _ location: DataStore.Location, models: StoreModels
    ) throws -> (LocalDatabase, dropped: [DataStoreError]) {
        let writer: any DatabaseWriter
        var checkpoints: WALCheckpoints?
        switch location {
        case .inMemory:
            writer = try DatabaseQueue()
        case .file(let url):
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            var configuration = Configuration()
            configuration.prepareDatabase { db in
                // Queries read the file through the OS page cache instead of copying every page
                // into each connection's own cache: a query returning a thousand models touches
                // a thousand table pages, and reading them with pread cost a third of its time.
                try db.execute(sql: "PRAGMA mmap_size = \(Self.memoryMapSize)")
            }
            let walCheckpoints = WALCheckpoints(threshold: Self.checkpointFrames)
            checkpoints = walCheckpoints
            configuration.prepareDatabase { db in
                if !db.configuration.readonly { walCheckpoints.install(on: db) }
            }
            // A pool opens in WAL mode: queries read while a save writes.
            writer = try DatabasePool(path: url.path, configuration: configuration)
        }
        let schema = models.schema
        var tables: [String: ModelTable] = [:]
        for model in schema.models { tables[model.name] = try ModelTable(model) }
        let access = DatabaseAccess(writer)
        checkpoints?.attach(access)
        let database = LocalDatabase(writer: writer, tables: tables, schema: schema, access: access, checkpoints: checkpoints)
        // A file whose tables have another layout is rebuilt like one made for another schema.
        let version = "\(models.version)-\(Self.layoutRevision)"
        try ClientTables.migrator.migrate(writer)
        let dropped = try writer.write { db in try database.migrate(db, version: version) }
        return (database, dropped)
    }

    /// Rebuilds the models' tables when the schema or their layout changed (the DataStore's
    /// own tables are migrated by ``ClientTables`` before).
    private func migrate(_ db: Database, version: String) throws -> [DataStoreError] {
        let stored = try String.fetchOne(db, sql: "SELECT value FROM deltasync_client_meta WHERE key = 'schemaVersion'")
        var dropped: [DataStoreError] = []
        if stored != version {
            let previous = try String.fetchOne(db, sql: "SELECT value FROM deltasync_client_meta WHERE key = 'modelTables'")
            let previousTables = previous.flatMap { try? JSONValue(parsing: $0).arrayValue?.compactMap(\.stringValue) } ?? []
            let (pending, unreadable) = try Outbox.takeReadable(db)
            dropped += unreadable
            for name in previousTables where try db.tableExists(name) {
                try db.execute(sql: "DROP TABLE \(name.quotedDatabaseIdentifier)")
            }
            try ModelSyncMetadata.removeAll(db)
            try createTables(db)
            dropped += try keepFitting(pending, db)
            try db.execute(
                sql: "INSERT OR REPLACE INTO deltasync_client_meta (key, value) VALUES ('schemaVersion', ?), ('modelTables', ?)",
                arguments: [version, JSONValue.array(tables.keys.sorted().map { .string($0) }).jsonText])
        } else {
            try createTables(db)
        }
        return dropped
    }

    private func createTables(_ db: Database) throws {
        for table in tables.values where try !db.tableExists(table.name) {
            try db.execute(sql: table.createTableSQL(layout: .rowid))
            for index in table.indexes.values { try db.execute(sql: table.createIndexSQL(index, layout: .rowid)) }
        }
    }

    /// Keeps the pending mutations whose model and fields the new schema still has, putting
    /// their items back; removes the others and describes them.
    private func keepFitting(_ pending: [OutboxMutation], _ db: Database) throws -> [DataStoreError] {
        var dropped: [String: (count: Int, reason: String)] = [:]
        for mutation in pending {
            let reason: String?
            if let table = tables[mutation.modelName], let model = schema.model(named: mutation.modelName) {
                let known = Set(model.storedFields.map(\.name) + ModelTable.metadata.map(\.name))
                let unknown = mutation.item.keys.filter { !known.contains($0) }.sorted()
                if !unknown.isEmpty {
                    reason = "the schema no longer has field(s) \(unknown.joined(separator: ", "))"
                } else if mutation.mutationType != .delete {
                    do {
                        try table.put(mutation.item, in: db)
                        reason = nil
                    } catch {
                        reason = "the item no longer fits the schema (\(error))"
                    }
                } else {
                    reason = nil
                }
            } else {
                reason = "the schema no longer has model \(mutation.modelName)"
            }
            if let reason {
                try Outbox.remove(db, sequence: mutation.sequence)
                dropped[mutation.modelName, default: (0, reason)].count += 1
            }
        }
        return dropped.keys.sorted().map { .pendingMutationsDropped(model: $0, count: dropped[$0]!.count, reason: dropped[$0]!.reason) }
    }

    package func table(_ name: String) throws(DataStoreError) -> ModelTable {
        guard let table = tables[name] else { throw .unknownModel(name) }
        return table
    }
}

extension LocalDatabase {
    /// Runs `transaction` in a write transaction (see ``DatabaseAccess``).
    func write(_ transaction: @escaping @Sendable (Database) throws -> Void) async throws {
        try await access.write(transaction)
    }

    /// Runs `body` in a read transaction (see ``DatabaseAccess``).
    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await access.read(body)
    }

    /// Runs `body` in a read transaction on the calling thread (see ``DatabaseAccess/readNow(_:)``).
    func readNow<T>(_ body: (Database) throws -> T) throws -> T {
        try access.readNow(body)
    }
}
