import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncStorage
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO

/// An ``ItemStore`` in PostgreSQL (through postgres-nio): what several server processes share.
///
/// ```swift
/// let settings = try PostgresStoreSettings(url: "postgres://app@127.0.0.1:5432/app?schema=dev")
/// let store = try await PostgresItemStore.connect(settings: settings, schema: schema)
/// try await store.write { tx in try tx.put(post, ["id": "1", "title": "Hello"]) }
/// let item = try await store.read { tx in try tx.get(post, key: ["id": "1"]) }
/// await store.shutdown()
/// ```
///
/// **Layout.** One table per model in the settings' PostgreSQL schema: `key text PRIMARY KEY`
/// (the canonical JSON of the key values), `item jsonb`, and `_lastChangedAt`, `_deleted`,
/// `_ttl` columns for the purge. The primary key's order and every `@index` are expression
/// indexes over the jsonb fields, typed by field kind (see ``PostgresModelTable``); queries use
/// the same expressions, so PostgreSQL serves them from those indexes. The sync log has tables of
/// its own (``PostgresSyncLog``).
///
/// **The bridge.** The contract's transaction bodies are synchronous closures (GRDB's are). Each
/// body runs on a thread of the store's own `NIOThreadPool` (as many threads as the pool has
/// connections), with one connection leased from `PostgresClient`; each statement blocks that
/// thread on postgres-nio's `EventLoopFuture` API (`wait()`), which is allowed there: the thread
/// is neither an event loop nor a Swift concurrency thread. `read` runs in
/// `REPEATABLE READ READ ONLY` (one snapshot); `write` in `READ COMMITTED`, rolled back when the
/// body throws.
///
/// **Writes at once, one item at a time.** A write transaction takes the store's advisory lock
/// (one key per PostgreSQL schema) shared, and each item's own advisory lock before it reads or
/// writes the item: writes of different items, from any number of processes, run at once, and a
/// read-check-write of one item never interleaves with another of the same item (no `_version`
/// twice). A sync's stamp (``stampSync(now:)``), resets, seeds, restores and the purge take the
/// store's lock exclusively (``writeAlone(_:)``). A create is not a transaction but a row of one
/// prepared call of the schema's `deltasync_insert_rows` function (``insert(_:key:now:_:)``),
/// which creates arriving together share, found through the pool's `search_path`, which is the
/// store's schema. docs/architecture.md argues why
/// `startedAt` stays safe ("Why `startedAt` is safe on PostgreSQL").
///
/// Errors from PostgreSQL reach callers as ``AppSyncError`` (`InternalFailure`) saying what the
/// store was doing and what the server said.
public final class PostgresItemStore: ItemStore {
    /// The schema the store was opened with.
    public let schema: AmplifySchema
    public let settings: PostgresStoreSettings
    let catalog: PostgresCatalog
    let client: PostgresClient
    /// What a connection of its own (a channel's listener) is made with.
    let connectionConfiguration: PostgresConnection.Configuration
    /// Whether the database is known to be down.
    let reachability = PostgresReachability()
    /// The latest change time this process handed out: its stamps only grow, even with the
    /// fixture clock set back.
    let processClock = NIOLockedValueBox(0)
    private let threadPool: NIOThreadPool
    private let runTask: Task<Void, Never>
    let logger: Logger
    /// The advisory lock every write transaction takes.
    package let writeLockKey: Int64
    /// Creates arriving together share a call (``insert(_:key:now:_:)``).
    let insertGroup = PostgresInsertGroup<PostgresInsertStatement.Create, (floor: Int, written: Bool)>(
        calls: PostgresItemStore.insertCalls, rowsPerCall: 64)
    /// The advisory lock one purge holds, so that only one instance purges at a time.
    package let purgeLockKey: Int64

    private init(
        schema: AmplifySchema, settings: PostgresStoreSettings, catalog: PostgresCatalog, client: PostgresClient,
        connectionConfiguration: PostgresConnection.Configuration, threadPool: NIOThreadPool, runTask: Task<Void, Never>,
        logger: Logger
    ) {
        self.connectionConfiguration = connectionConfiguration
        self.schema = schema
        self.settings = settings
        self.catalog = catalog
        self.client = client
        self.threadPool = threadPool
        self.logger = logger
        self.writeLockKey = PostgresSQL.lockKey("deltasync.write:\(settings.schema)")
        self.purgeLockKey = PostgresSQL.lockKey("deltasync.purge:\(settings.schema)")
        self.runTask = runTask
    }

    // MARK: - Connecting

    /// Connects, creates the PostgreSQL schema and brings its tables in line with `schema`
    /// (adding what is missing, dropping nothing), then opens the connection pool.
    ///
    /// ```swift
    /// let store = try await PostgresItemStore.connect(
    ///     settings: PostgresStoreSettings(url: "postgres://app@db/app"), schema: schema)
    /// ```
    ///
    /// - Throws: ``AppSyncError`` (`InternalFailure`) naming host:port and the server's message
    ///   when the database cannot be reached within ``PostgresStoreSettings/connectTimeout``;
    ///   when the schema cannot be stored; or when the migration fails.
    public static func connect(
        settings: PostgresStoreSettings, schema: AmplifySchema, logger: Logger = Logger(label: "DeltaSync.Postgres")
    ) async throws -> PostgresItemStore {
        let catalog = try PostgresCatalog(schema, schema: settings.schema)

        // One connection first: a clear error when the database cannot be reached (the pool
        // would keep retrying), and the migration, before any transaction runs.
        let connectionConfiguration = try settings.connectionConfiguration()
        let probe: PostgresConnection
        do {
            probe = try await PostgresConnection.connect(configuration: connectionConfiguration, id: 0, logger: logger)
        } catch {
            let reason = (error as? PSQLError).map(PostgresSQL.describe) ?? "\(error)"
            throw AppSyncError(
                .internalFailure,
                "Cannot connect to PostgreSQL at \(settings.host):\(settings.port) (database \(settings.database), user \(settings.username)): \(reason). Check that the server runs and that the database URL is right.")
        }

        var configuration = PostgresClient.Configuration(
            host: settings.host, port: settings.port, username: settings.username, password: settings.password,
            database: settings.database, tls: .disable)
        switch settings.tls {
        case .disable: break
        case .prefer: configuration.tls = .prefer(.makeClientConfiguration())
        case .require: configuration.tls = .require(.makeClientConfiguration())
        }
        configuration.options.maximumConnections = settings.poolSize
        // Statements name every table with its schema; the prepared call of `deltasync_insert_rows`
        // is one text for all stores, and finds the function through the path.
        configuration.options.additionalStartupParameters = [("search_path", PostgresSQL.identifier(settings.schema))]
        configuration.options.connectTimeout = .seconds(settings.connectTimeout)
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        // Started before the migration, so that it runs by the time the first body leases a
        // connection (postgres-nio warns about leases before `run()`).
        let runTask = Task { await client.run() }
        let threadPool = NIOThreadPool(numberOfThreads: settings.poolSize)
        threadPool.start()
        let latestChange: Int
        do {
            latestChange = try await threadPool.runIfActive {
                let connection = BlockingSession(connection: probe, logger: logger)
                try PostgresMigrator(catalog: catalog).migrate(connection)
                // Writes do not tick the clock row: this process's stamps start above every
                // change any process stored, so they never go back across a restart.
                return try connection.value(Int.self, "read the latest change", """
                    SELECT GREATEST((SELECT last FROM \(catalog.qualified(PostgresSyncLog.clock))),
                                    (SELECT coalesce(max(changed_at), 0) FROM \(catalog.qualified(PostgresSyncLog.delta))))
                    """) ?? 0
            }
        } catch {
            try? await probe.close()
            try? await threadPool.shutdownGracefully()
            runTask.cancel()
            await runTask.value
            throw error
        }
        try? await probe.close()

        let store = PostgresItemStore(
            schema: schema, settings: settings, catalog: catalog, client: client, connectionConfiguration: connectionConfiguration,
            threadPool: threadPool, runTask: runTask, logger: logger)
        store.processClock.withLockedValue { $0 = latestChange }
        return store
    }

    /// Closes the connections and stops the threads. Call it once, when nothing uses the store
    /// any more.
    public func shutdown() async {
        runTask.cancel()
        await runTask.value
        try? await threadPool.shutdownGracefully()
    }

    /// A store dropped without ``shutdown()`` still lets go of its connections and threads.
    deinit {
        runTask.cancel()
        threadPool.shutdownGracefully { _ in }
    }

    // MARK: - Transactions

    /// Runs `body` on one consistent snapshot (`REPEATABLE READ READ ONLY`).
    public func read<T: Sendable>(_ body: @Sendable (any ItemReadTransaction) throws -> T) async throws -> T {
        try await transaction(.read) { try body($0) }
    }

    /// Runs `body` beside other writes of other items: it holds the store's advisory lock
    /// shared, and each item it reads or writes is locked (an exclusive advisory lock per item)
    /// before it is touched, so a read-check-write of one item never interleaves with another
    /// of the same item. Committed when this returns, rolled back if `body` throws.
    public func write<T: Sendable>(_ body: @Sendable (any ItemWriteTransaction) throws -> T) async throws -> T {
        try await transaction(.write) { try body($0) }
    }

    /// Runs `body` with the store's advisory lock held exclusively: after every write in
    /// flight has committed, and with no other write beside it (resets, seeds, restores).
    public func writeAlone<T: Sendable>(_ body: @Sendable (any ItemWriteTransaction) throws -> T) async throws -> T {
        try await transaction(.alone) { try body($0) }
    }

    /// Takes the store's lock exclusively, so every write in flight commits first, and moves the
    /// clock's floor (which writes stamp above) to the sync's time. See "Why `startedAt` is safe
    /// on PostgreSQL" in docs/architecture.md.
    public func stampSync(now: Int) async throws -> Int {
        try await transaction(.alone) { tx in try tx.stampChange(now: now) }
    }

    func transaction<T: Sendable>(_ mode: PostgresTransaction.Mode, _ body: @Sendable (PostgresTransaction) throws -> T) async throws -> T {
        try await withConnection { connection in
            try await withoutActuallyEscaping(body) { body in
                try await self.threadPool.runBlocking { [catalog, writeLockKey, processClock] in
                    let transaction = PostgresTransaction(
                        connection: connection, catalog: catalog, mode: mode, storeLockKey: writeLockKey, processClock: processClock)
                    let result = try Self.inTransaction(connection, mode: mode, lockKey: writeLockKey) { _ in try body(transaction) }
                    // Committed: later stamps of this process go above it (a rolled-back stamp is not kept).
                    let stamped = transaction.touched.withLockedValue { $0.stamped }
                    if stamped > 0 { processClock.withLockedValue { $0 = max($0, stamped) } }
                    return result
                }
            }
        }
    }

    /// Leases a connection; a pool that cannot connect surfaces as ``AppSyncError``. While the
    /// database is known to be down, waits at most ``PostgresReachability/leaseLimit`` for one.
    func withConnection<T: Sendable>(_ body: @Sendable (BlockingSession) async throws -> T) async throws -> T {
        let (logger, client) = (self.logger, self.client)
        do {
            guard let outage = reachability.down else {
                return try await client.withConnection { connection in
                    try await body(BlockingSession(connection: connection, logger: logger))
                }
            }
            return try await withoutActuallyEscaping(body) { body in
                try await withThrowingTaskGroup(of: T.self) { group in
                    group.addTask {
                        try await client.withConnection { connection in
                            try await body(BlockingSession(connection: connection, logger: logger))
                        }
                    }
                    group.addTask { [settings] in
                        try await Task.sleep(for: PostgresReachability.leaseLimit)
                        throw AppSyncError(
                            .serviceUnavailable,
                            "PostgreSQL at \(settings.host):\(settings.port) is not reachable (\(outage)). DeltaSync reconnects when it is back; retry then.")
                    }
                    defer { group.cancelAll() }
                    guard let first = try await group.next() else { throw CancellationError() }
                    reachability.markUp()
                    return first
                }
            }
        } catch {
            let wrapped = PostgresSQL.wrap(error, "lease a connection to \(settings.host):\(settings.port)")
            if let failure = wrapped as? AppSyncError, failure.errorType == .serviceUnavailable, reachability.down == nil {
                reachability.markDown(PostgresSQL.cause(of: error))
            }
            throw wrapped
        }
    }

    /// `BEGIN` … `COMMIT` around `body`, `ROLLBACK` when it throws. An `.alone` write first
    /// takes the store's lock exclusively; a `.write` takes it shared with its first item lock,
    /// stamp or write (``PostgresTransaction/lockStore()``), saving a round trip.
    private static func inTransaction<T>(
        _ connection: BlockingSession, mode: PostgresTransaction.Mode, lockKey: Int64, _ body: (BlockingSession) throws -> T
    ) throws -> T {
        try connection.run("begin a transaction", mode == .read ? "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" : "BEGIN")
        do {
            if mode == .alone {
                var b = SQLBuilder()
                try connection.run("take the write lock", "SELECT pg_advisory_xact_lock(\(b.bind(Int(lockKey))))", b)
            }
            let result = try body(connection)
            try connection.run("commit a transaction", "COMMIT")
            return result
        } catch {
            _ = try? connection.run("roll back a transaction", "ROLLBACK")
            throw error
        }
    }

    // MARK: - Expiry

    /// Deletes deltas changed before `deltasBefore` (epoch ms) and tombstones whose `_ttl` is at
    /// or before `tombstonesExpiredBy` (epoch seconds), in write transactions of at most 500
    /// rows each, so mutations run between them. Only one instance purges a schema at a time
    /// (`pg_try_advisory_lock`): while another holds the purge lock this returns zero counts.
    public func purgeExpired(deltasBefore: Int, tombstonesExpiredBy: Int) async throws -> PurgeResult {
        try await withConnection { connection in
            try await self.threadPool.runIfActive { [catalog, writeLockKey, purgeLockKey] in
                var lock = SQLBuilder()
                let key = lock.bind(Int(purgeLockKey))
                guard try connection.value(Bool.self, "take the purge lock", "SELECT pg_try_advisory_lock(\(key))", lock) == true else {
                    return PurgeResult(deltas: 0, tombstones: 0)
                }
                defer { _ = try? connection.run("release the purge lock", "SELECT pg_advisory_unlock(\(key))", lock) }
                func batches(_ purpose: String, _ sql: (inout SQLBuilder) -> String) throws -> Int {
                    var total = 0
                    while true {
                        let deleted = try Self.inTransaction(connection, mode: .alone, lockKey: writeLockKey) { c in
                            var b = SQLBuilder()
                            return try c.run(purpose, sql(&b), b).metadata.rows ?? 0
                        }
                        total += deleted
                        if deleted < PostgresSyncLog.purgeBatchSize { return total }
                    }
                }
                var result = PurgeResult(deltas: 0, tombstones: 0)
                let delta = catalog.qualified(PostgresSyncLog.delta)
                // Deltas of every model in the log, including models the schema no longer has:
                // one seek per model in the (model, changed_at, seq) index.
                var model = ""
                while true {
                    var b = SQLBuilder()
                    let sql = "SELECT model FROM \(delta) WHERE model > \(b.bind(model)) ORDER BY model LIMIT 1"
                    guard let next = try connection.value(String.self, "find the models of the delta log", sql, b) else { break }
                    result.deltas += try batches("purge old deltas of \(next)") { b in
                        """
                        DELETE FROM \(delta) WHERE seq IN (
                            SELECT seq FROM \(delta) WHERE model = \(b.bind(next)) AND changed_at < \(b.bind(deltasBefore))
                            LIMIT \(PostgresSyncLog.purgeBatchSize))
                        """
                    }
                    model = next
                }
                for table in catalog.sortedTables {
                    result.tombstones += try batches("purge expired tombstones of \(table.name)") { b in
                        """
                        DELETE FROM \(table.qualifiedName) WHERE key IN (
                            SELECT key FROM \(table.qualifiedName) WHERE "_deleted" AND "_ttl" <= \(b.bind(tombstonesExpiredBy))
                            LIMIT \(PostgresSyncLog.purgeBatchSize))
                        """
                    }
                }
                return result
            }
        }
    }

    // MARK: - Checkpoints

    /// Every model table, the delta log and the conflict log, in one snapshot.
    private var checkpointTables: [String] {
        catalog.sortedTables.map(\.qualifiedName) + [PostgresSyncLog.delta, PostgresSyncLog.conflicts].map(catalog.qualified)
    }

    /// Every table's rows, copied into memory in one snapshot.
    public func checkpoint() async throws -> any StoreCheckpoint {
        let names = checkpointTables
        let schema = settings.schema
        return try await transaction(.read) { tx in
            let tables = try names.map { name in
                let rows = try tx.connection.value(
                    String.self, "copy \(name) for a checkpoint", "SELECT coalesce(jsonb_agg(t), '[]'::jsonb)::text FROM \(name) t")
                return PostgresCheckpoint.Table(name: name, rows: rows ?? "[]")
            }
            return PostgresCheckpoint(schema: schema, tables: tables)
        }
    }

    /// Puts a checkpoint's rows back in one write transaction. The change clock is left where
    /// it is: it only moves forward, so it is already past every change in the checkpoint.
    public func restore(_ checkpoint: any StoreCheckpoint) async throws {
        guard let checkpoint = checkpoint as? PostgresCheckpoint, checkpoint.schema == settings.schema,
            checkpoint.tables.map(\.name) == checkpointTables
        else {
            throw AppSyncError(.badRequest, "This checkpoint was not made by this PostgreSQL store; restore it into the store that made it.")
        }
        try await transaction(.alone) { tx in
            for table in checkpoint.tables {
                try tx.connection.run("empty \(table.name) for a restore", "DELETE FROM \(table.name)")
                var b = SQLBuilder()
                try tx.connection.run(
                    "restore \(table.name)",
                    "INSERT INTO \(table.name) SELECT * FROM jsonb_populate_recordset(NULL::\(table.name), \(b.bind(table.rows))::jsonb)", b)
            }
        }
    }

    public func export(toFile path: String) async throws {
        throw AppSyncError(.badRequest, "Snapshot files are for SQLite stores; use pg_dump/pg_restore for a PostgreSQL store.")
    }

    public func restore(fromFile path: String) async throws {
        throw AppSyncError(.badRequest, "Snapshot files are for SQLite stores; use pg_dump/pg_restore for a PostgreSQL store.")
    }

    // MARK: - Diagnostics

    /// PostgreSQL's plan of one page query (`EXPLAIN`), for checking that an index serves it.
    /// `forbidSequentialScan` (`enable_seqscan = off`) makes the planner use an index whenever
    /// one matches the query's expressions, whatever the table's size.
    package func explain(_ model: ModelSchema, _ query: ItemQuery, forbidSequentialScan: Bool = false) async throws -> String {
        let table = try catalog.table(for: model)
        let (sql, builder, _) = try PostgresTransaction.pageSQL(table, query)
        return try await transaction(.read) { tx in
            if forbidSequentialScan { try tx.connection.run("disable sequential scans", "SET LOCAL enable_seqscan = off") }
            return try tx.connection.run("explain a query", "EXPLAIN " + sql, builder).rows.map { try $0.column(0, String.self) ?? "" }
                .joined(separator: "\n")
        }
    }

    /// How many requests for this store's write lock wait now (for tests that must see a
    /// transaction queue for it). A bigint advisory key shows in `pg_locks` as its high and low
    /// 32 bits (`classid`, `objid`).
    package func waitingAdvisoryLocks() async throws -> Int {
        let key = UInt64(bitPattern: writeLockKey)
        let (high, low) = (Int(key >> 32), Int(key & 0xffff_ffff))
        return try await transaction(.read) { tx in
            var b = SQLBuilder()
            let sql = """
                SELECT count(*)::bigint FROM pg_locks WHERE locktype = 'advisory' AND NOT granted
                AND classid::bigint = \(b.bind(high)) AND objid::bigint = \(b.bind(low)) AND objsubid = 1
                """
            return try tx.connection.value(Int.self, "count waiting locks", sql, b) ?? 0
        }
    }
}
