import DeltaSyncCore
import DeltaSyncSQLiteConfig
import DeltaSyncStorage
import GRDB

/// A database file from outside (`PUT /admin/snapshot` with a SQLite file), opened and checked
/// before ``SQLiteItemStore/restore(fromFile:)`` copies its pages over the store.
///
/// The file may have been written by anything: a trigger in it (one that rewrites `owner` on
/// every insert, say) would run inside the store from then on and survive `/admin/reset`, and a
/// view or a damaged page would be read as the store's own. So the file is read on a connection
/// SQLite hardens for untrusted databases (`SQLITE_DBCONFIG_DEFENSIVE`, `trusted_schema` off,
/// `cell_size_check` on), must pass `PRAGMA quick_check`, and may hold only the tables and
/// indexes DeltaSync's migrations create: the ones the store itself has.
///
/// ```swift
/// let source = try ImportedDatabase.open(path)
/// try await ImportedDatabase.check(source, against: store's objects)
/// ```
enum ImportedDatabase {
    /// One row of `sqlite_master`: what the schema holds.
    struct SchemaObject: Hashable, Sendable {
        let type: String
        let name: String
        let table: String

        /// Every object but SQLite's own (`sqlite_autoindex_...`, `sqlite_stat1`, ...).
        static func all(_ db: Database) throws -> Set<SchemaObject> {
            let rows = try Row.fetchAll(db, sql: "SELECT type, name, tbl_name FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")
            return Set(rows.map { SchemaObject(type: $0[0], name: $0[1], table: $0[2]) })
        }
    }

    /// Opens `path` read-only on a hardened connection.
    ///
    /// - Throws: ``AppSyncError`` (`InternalFailure`) when this SQLite cannot harden the
    ///   connection; GRDB's `DatabaseError` when the file cannot be opened.
    static func open(_ path: String) throws -> DatabaseQueue {
        var configuration = GRDB.Configuration()
        configuration.readonly = true
        configuration.prepareDatabase { db in
            guard deltasync_sqlite_enable_defensive(UnsafeMutableRawPointer(db.sqliteConnection)) == 1 else {
                throw AppSyncError(
                    .internalFailure,
                    "this SQLite library cannot turn on SQLITE_DBCONFIG_DEFENSIVE (it needs 3.26 or later), so database files are not imported; import the JSON snapshot instead.")
            }
            // Functions with side effects are never run from the file's schema.
            try db.execute(sql: "PRAGMA trusted_schema = OFF")
            // Damaged cells are reported as errors instead of being read.
            try db.execute(sql: "PRAGMA cell_size_check = ON")
        }
        return try DatabaseQueue(path: path, configuration: configuration)
    }

    /// Runs `PRAGMA quick_check` on `source`, then compares its schema with `ours` (the store's
    /// tables and indexes).
    ///
    /// - Throws: ``AppSyncError`` (`BadRequest`) naming the damage or the first object the store
    ///   does not have, and how to get an importable file.
    static func check(_ source: DatabaseQueue, against ours: Set<SchemaObject>) async throws {
        let problems: [String]
        do {
            problems = try await source.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check") }
        } catch let error as DatabaseError {
            // Damage bad enough that the check itself stops (SQLITE_CORRUPT, SQLITE_NOTADB).
            problems = [error.message ?? "\(error.resultCode)"]
        }
        guard problems == ["ok"] else {
            throw AppSyncError(
                .badRequest,
                "Snapshot: the file is damaged (PRAGMA quick_check: \(problems.prefix(3).joined(separator: "; "))). Export it again from the server it came from (GET /admin/snapshot with Accept: application/vnd.sqlite3).")
        }
        let theirs = try await source.read { db in try SchemaObject.all(db) }
        let allowed = ours.filter { $0.type == "table" || $0.type == "index" }
        let foreign = theirs.subtracting(allowed).sorted { ($0.type, $0.name) < ($1.type, $1.name) }
        if let object = foreign.first {
            let kind = object.type.uppercased()
            throw AppSyncError(
                .badRequest,
                "Snapshot: the file holds \(object.type) '\(object.name)' (on \(object.table)), which DeltaSync does not create for this schema; a snapshot file may hold only DeltaSync's tables and indexes\(foreign.count > 1 ? " (\(foreign.count - 1) more objects are foreign too)" : ""). Export the snapshot again from a DeltaSync server (GET /admin/snapshot with Accept: application/vnd.sqlite3, or deltasync export --format sqlite), or drop the object from the file first: sqlite3 FILE 'DROP \(kind) \"\(object.name)\"'.")
        }
    }
}
