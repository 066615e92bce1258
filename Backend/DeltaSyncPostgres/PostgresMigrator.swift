import DeltaSyncCore

/// Brings a PostgreSQL schema in line with the AppSync schema when the store connects.
///
/// Adds what is missing and never drops data: new models get tables, new indexes
/// `CREATE INDEX IF NOT EXISTS`, new fields nothing at all (items are jsonb). Everything runs in
/// one transaction under an advisory lock (one key per PostgreSQL schema), so two processes
/// starting at once do not race on `CREATE … IF NOT EXISTS` (which is not safe against a
/// concurrent create of the same name).
///
/// Not handled yet: an index whose fields changed under the same name keeps its old definition
/// (queries stay correct, only slower), and a field whose type changed keeps its stored values,
/// which an index expression of the new type cannot cast (creating that index then fails with
/// PostgreSQL's message).
struct PostgresMigrator {
    /// The layout version this code writes; a newer one is refused rather than misread.
    static let formatVersion = 1

    let catalog: PostgresCatalog

    var lockKey: Int64 { PostgresSQL.lockKey("deltasync.migrate:\(catalog.schema)") }

    func migrate(_ connection: BlockingSession) throws {
        try connection.run("start the schema migration", "BEGIN")
        do {
            try migrateLocked(connection)
            try connection.run("commit the schema migration", "COMMIT")
        } catch {
            _ = try? connection.run("roll back the schema migration", "ROLLBACK")
            throw error
        }
    }

    private func migrateLocked(_ c: BlockingSession) throws {
        var lock = SQLBuilder()
        try c.run("lock the schema for migration", "SELECT pg_advisory_xact_lock(\(lock.bind(Int(lockKey))))", lock)
        try c.run("create the schema \(catalog.schema)", "CREATE SCHEMA IF NOT EXISTS \(PostgresSQL.identifier(catalog.schema))")

        let meta = catalog.qualified(PostgresSyncLog.meta)
        try c.run("create \(PostgresSyncLog.meta)", "CREATE TABLE IF NOT EXISTS \(meta) (key text PRIMARY KEY, value text NOT NULL)")
        if let stored = try c.value(String.self, "read the format version", "SELECT value FROM \(meta) WHERE key = 'formatVersion'"),
            let version = Int(stored), version > Self.formatVersion
        {
            throw AppSyncError(
                .internalFailure,
                "The PostgreSQL schema \(catalog.schema) was written by a newer DeltaSync (format \(version); this one reads up to \(Self.formatVersion)). Upgrade DeltaSync or use another schema.")
        }
        var version = SQLBuilder()
        try c.run(
            "write the format version",
            "INSERT INTO \(meta) (key, value) VALUES ('formatVersion', \(version.bind(String(Self.formatVersion)))) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
            version)

        for table in catalog.sortedTables {
            try c.run("create the table of \(table.name)", """
                CREATE TABLE IF NOT EXISTS \(table.qualifiedName) (
                    key text PRIMARY KEY, item jsonb NOT NULL, "_lastChangedAt" bigint, "_deleted" boolean, "_ttl" bigint)
                """)
            for index in [table.primaryIndex] + table.indexes.values.sorted(by: { $0.name < $1.name }) {
                try c.run("create the index \(index.name) of \(table.name)", table.createIndexSQL(index))
            }
            // What the purge finds expired tombstones with: only deleted items are in it.
            try c.run("create the tombstone index of \(table.name)", """
                CREATE INDEX IF NOT EXISTS \(PostgresSQL.identifier(table.tombstoneIndex)) ON \(table.qualifiedName) ("_ttl") WHERE "_deleted"
                """)
        }
        for sql in PostgresSyncLog.createSQL(catalog) + PostgresInstanceChannel.createSQL(catalog) + PostgresFunctions.createSQL(catalog) {
            try c.run("create the sync log", sql)
        }
        // A new clock starts after the latest change any item carries.
        let clock = catalog.qualified(PostgresSyncLog.clock)
        if try c.value(Int.self, "read the change clock", "SELECT last FROM \(clock)") == nil {
            var last = 0
            for table in catalog.sortedTables {
                last = max(last, try c.value(Int.self, "read the latest change of \(table.name)", "SELECT max(\"_lastChangedAt\") FROM \(table.qualifiedName)") ?? 0)
            }
            var b = SQLBuilder()
            try c.run("start the change clock", "INSERT INTO \(clock) (id, last) VALUES (0, \(b.bind(last)))", b)
        }
    }
}
