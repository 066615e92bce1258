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
    /// The threads transaction bodies block on (see "The bridge" above).
    let threadPool: NIOThreadPool
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
}
