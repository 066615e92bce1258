import GRDB

/// The DataStore's own tables (the outbox, per-model sync state, the meta table), created and
/// upgraded by GRDB's `DatabaseMigrator`. The models' tables are not here: they follow the app's
/// schema, and ``LocalDatabase`` rebuilds them when it changes.
///
/// A change to these tables is a new migration appended to ``migrator``, never an edit of a
/// registered one: files on users' devices have run the old ones.
enum ClientTables {
    static let meta = "deltasync_client_meta"
    static let outbox = "deltasync_outbox"
    static let modelSync = "deltasync_model_sync"

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        // Files written before the DataStore used migrations already have these tables, with
        // exactly this layout: the first migration creates only what is missing, so they open
        // and upgrade as they are.
        migrator.registerMigration("v1: meta, outbox, model sync") { db in
            try db.execute(sql: """
                CREATE TABLE IF NOT EXISTS deltasync_client_meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) WITHOUT ROWID;
                CREATE TABLE IF NOT EXISTS deltasync_outbox (
                    sequence INTEGER PRIMARY KEY,
                    model TEXT NOT NULL,
                    modelID TEXT NOT NULL,
                    mutationType TEXT NOT NULL,
                    item TEXT NOT NULL,
                    condition TEXT,
                    createdAt INTEGER NOT NULL,
                    inProcess INTEGER NOT NULL DEFAULT 0
                );
                CREATE INDEX IF NOT EXISTS deltasync_outbox_item ON deltasync_outbox (model, modelID);
                CREATE TABLE IF NOT EXISTS deltasync_model_sync (
                    model TEXT PRIMARY KEY NOT NULL, lastSync INTEGER, syncExpression TEXT
                ) WITHOUT ROWID;
                """)
        }
        return migrator
    }
}
