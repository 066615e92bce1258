import DeltaSyncCore
import DeltaSyncSQLite
import DeltaSyncStorage
import GRDB

/// Brings a database in line with the schema when the store opens.
///
/// Creates missing tables, columns and indexes. A table whose primary key or column types
/// changed is copied into a new table of the new shape (SQLite cannot alter either in place);
/// columns of removed fields are kept, so no stored value is ever dropped.
///
/// Format versions: 1 holds the model tables; 2 adds the sync log (``SyncLogTables``) and the
/// tombstone indexes. Older files gain what they lack and are then marked with this version.
struct TableMigrator {
    /// The layout version this code writes; a newer file is refused rather than misread (an
    /// older DeltaSync would write items without logging their changes).
    static let formatVersion = 2

    let tables: [ModelTable]

    func migrate(_ db: Database) throws {
        try migrateMeta(db)
        for table in tables {
            try migrate(table, db)
            try migrateIndexes(table, db)
            // After `migrate`: a rebuilt table lost its indexes with the old table.
            try SyncLogTables.migrateTombstoneIndex(table, db)
        }
        try SyncLogTables.migrate(db, tables: tables)
    }

    // MARK: - Format version

    private func migrateMeta(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE IF NOT EXISTS deltasync_meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) WITHOUT ROWID
            """)
        let stored = try String.fetchOne(db, sql: "SELECT value FROM deltasync_meta WHERE key = 'formatVersion'")
        if let stored, let version = Int(stored), version > Self.formatVersion {
            throw AppSyncError(
                .internalFailure,
                "The database was written by a newer DeltaSync (format \(version); this one reads up to \(Self.formatVersion)). Upgrade DeltaSync or open another file."
            )
        }
        try db.execute(
            sql: "INSERT OR REPLACE INTO deltasync_meta (key, value) VALUES ('formatVersion', ?)",
            arguments: [String(Self.formatVersion)]
        )
    }

    // MARK: - Tables

    private func migrate(_ table: ModelTable, _ db: Database) throws {
        guard try db.tableExists(table.name) else {
            try db.execute(sql: table.createTableSQL())
            return
        }
        let existing = try db.columns(in: table.name)
        let byName = Dictionary(existing.map { ($0.name.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
        let storedKey = try db.primaryKey(table.name).columns.map { $0.lowercased() }
        let keyChanged = storedKey != table.primaryKey.map { table.columns[$0].name.lowercased() }
        let typeChanged = table.columns.contains { column in
            byName[column.name.lowercased()].map { $0.type.uppercased() != column.kind.sqlType } ?? false
        }
        if keyChanged || typeChanged {
            try rebuild(table, existing: existing, db)
            return
        }
        for column in table.columns where byName[column.name.lowercased()] == nil {
            try db.execute(sql: "ALTER TABLE \(table.quotedName) ADD COLUMN \(table.definition(of: column))")
        }
    }

    /// SQLite's documented way to change a table's shape: create the new table, copy, swap.
    /// Values convert by the new columns' affinity (an Int field that became a String keeps
    /// its values as text).
    private func rebuild(_ table: ModelTable, existing: [ColumnInfo], _ db: Database) throws {
        let wanted = Set(table.columns.map { $0.name.lowercased() })
        let kept = existing.filter { !wanted.contains($0.name.lowercased()) }
        let scratch = "deltasync_rebuild".quotedDatabaseIdentifier
        try db.execute(sql: table.createTableSQL(named: scratch, extraColumns: kept.map { "\($0.name.quotedDatabaseIdentifier) \($0.type)" }))
        let copied = existing.map(\.name.quotedDatabaseIdentifier).joined(separator: ", ")
        do {
            try db.execute(sql: "INSERT INTO \(scratch) (\(copied)) SELECT \(copied) FROM \(table.quotedName)")
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            let key = table.primaryKey.map { table.columns[$0].name }.joined(separator: ", ")
            throw AppSyncError(
                .internalFailure,
                "Cannot change the primary key of \(table.name) to (\(key)): stored items would clash or lack a key value (\(error.message ?? "constraint failed")). Restore the previous key, or remove the database file to start empty."
            )
        }
        try db.execute(sql: "DROP TABLE \(table.quotedName)")
        try db.execute(sql: "ALTER TABLE \(scratch) RENAME TO \(table.quotedName)")
    }

    // MARK: - Indexes

    private func migrateIndexes(_ table: ModelTable, _ db: Database) throws {
        let ours = try db.indexes(on: table.name).filter { $0.name.hasPrefix("\(table.name).") }
        var current: Set<String> = []
        for index in ours {
            let wanted = table.indexes.values.first { $0.sqlName == index.name }
            if let wanted, index.columns == wanted.columns.map({ table.columns[$0].name }) {
                current.insert(index.name)
            } else {
                try db.execute(sql: "DROP INDEX \(index.name.quotedDatabaseIdentifier)")
            }
        }
        for index in table.indexes.values.sorted(by: { $0.name < $1.name }) where !current.contains(index.sqlName) {
            try db.execute(sql: table.createIndexSQL(index))
        }
    }
}
