import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncStorage
import NIOConcurrencyHelpers
import PostgresNIO

/// The transaction ``PostgresItemStore`` hands to `read` and `write` bodies: one leased
/// connection inside `BEGIN` … `COMMIT`, used from a thread of the store's thread pool (each
/// statement blocks that thread until PostgreSQL answers). Valid only inside the body.
struct PostgresTransaction: ItemWriteTransaction {
    /// What the transaction may do, and which store lock it holds.
    enum Mode: Sendable, Equatable {
        /// One snapshot, no lock.
        case read
        /// The store's lock shared, and each item's own lock before the item is touched.
        case write
        /// The store's lock exclusively: no other write runs.
        case alone
    }

    let connection: BlockingConnection
    let catalog: PostgresCatalog
    let mode: Mode
    /// The latest change time this process handed out (``PostgresItemStore/processClock``).
    let processClock: NIOLockedValueBox<Int>
    /// The items this transaction locked, and the latest change time it read.
    let touched = NIOLockedValueBox(Touched())

    struct Touched {
        var items: Set<Int64> = []
        /// The latest change time read or stamped: the next stamp goes above it.
        var latestChange = 0
        /// The latest time this transaction stamped: the process clock takes it at commit.
        var stamped = 0
    }

    init(connection: BlockingConnection, catalog: PostgresCatalog, mode: Mode = .alone, processClock: NIOLockedValueBox<Int> = .init(0)) {
        self.connection = connection
        self.catalog = catalog
        self.mode = mode
        self.processClock = processClock
    }

    /// In a `.write` transaction, takes the item's own lock (once per item) before the item is
    /// read or written: two transactions on one item run one after the other, others at once.
    /// Taken in its own statement: under `READ COMMITTED` the next statement's snapshot is taken
    /// after the lock is granted, so it sees the previous holder's commit.
    private func lockItem(_ table: PostgresModelTable, key: String) throws {
        guard mode == .write else { return }
        let lockKey = PostgresSQL.lockKey("deltasync.item:\(catalog.schema):\(table.name):\(key)")
        let first = touched.withLockedValue { $0.items.insert(lockKey).inserted }
        guard first else { return }
        var b = SQLBuilder()
        try connection.run("lock an item of \(table.name)", "SELECT pg_advisory_xact_lock(\(b.bind(Int(lockKey))))", b)
    }

    // MARK: - Reading

    func get(_ model: ModelSchema, key: Item) throws -> Item? {
        let table = try catalog.table(for: model)
        let keyText = try table.key(of: key)
        try lockItem(table, key: keyText)
        var b = SQLBuilder()
        let sql = "SELECT item::text FROM \(table.qualifiedName) WHERE key = \(b.bind(keyText))"
        guard let text = try connection.value(String.self, "read an item of \(model.name)", sql, b) else { return nil }
        let item = try table.item(fromJSON: text)
        if mode == .write, let changed = item["_lastChangedAt"]?.intValue {
            touched.withLockedValue { $0.latestChange = max($0.latestChange, changed) }
        }
        return item
    }

    /// Reads up to `limit + 1` rows in order: the first `limit` make the page, the extra one
    /// only tells whether a next page exists. The filter is evaluated in the same statement
    /// (its value decides whether the row's item is sent at all), or in memory when it cannot
    /// be compiled.
    func query(_ model: ModelSchema, _ query: ItemQuery, each body: (Item) throws -> Void) throws -> PageEnd {
        let table = try catalog.table(for: model)
        let (sql, builder, memoryFilter) = try Self.pageSQL(table, query)
        let result = try connection.run("query \(model.name)", sql, builder)
        var scanned = 0
        var last: [JSONValue]?
        var hasMore = false
        for row in result.rows {
            guard scanned < query.limit else {
                hasMore = true
                break
            }
            scanned += 1
            if let text = try row.column(0, String.self) {
                let item = try table.item(fromJSON: text)
                if memoryFilter?.matches(item) ?? true { try body(item) }
            }
            if scanned == query.limit, let cursor = try row.column(1, String.self) {
                last = (try? JSONValue(parsing: cursor))?.arrayValue
            }
        }
        return PageEnd(lastEvaluated: hasMore ? last : nil, scanned: scanned)
    }

    /// The SQL of one page: item (NULL when the filter rejects it) and resume cursor per row.
    /// Also what ``PostgresItemStore/explain(_:_:)`` shows the plan of.
    static func pageSQL(_ table: PostgresModelTable, _ query: ItemQuery) throws -> (String, SQLBuilder, QueryPredicate?) {
        guard query.limit >= 1 else {
            throw AppSyncError(.invalidArgument, "limit must be at least 1; it was \(query.limit).")
        }
        var b = SQLBuilder()
        let plan = try PostgresPagePlan(table: table, query: query, &b)
        var memoryFilter: QueryPredicate?
        var itemSQL = "item::text"
        if query.filter != .all {
            if let filter = PostgresFilterCompiler(table: table).compile(query.filter, &b) {
                itemSQL = "CASE WHEN \(filter) THEN item::text END"
            } else {
                memoryFilter = query.filter
            }
        }
        var sql = "SELECT \(itemSQL), \(plan.cursorSQL(in: table)) FROM \(table.qualifiedName)"
        if !plan.conditions.isEmpty { sql += " WHERE " + plan.conditions.joined(separator: " AND ") }
        if !plan.order.isEmpty { sql += " ORDER BY \(plan.orderSQL(in: table))" }
        if query.limit < Int.max { sql += " LIMIT \(b.bind(query.limit + 1))" }
        return (sql, b, memoryFilter)
    }

    func count(_ model: ModelSchema) throws -> (items: Int, tombstones: Int) {
        let table = try catalog.table(for: model)
        let result = try connection.run(
            "count the items of \(model.name)",
            "SELECT count(*)::bigint, (count(*) FILTER (WHERE \"_deleted\"))::bigint FROM \(table.qualifiedName)")
        guard let row = result.rows.first else { return (0, 0) }
        return (try row.column(0, Int.self) ?? 0, try row.column(1, Int.self) ?? 0)
    }

    // MARK: - Writing

    /// An upsert: `INSERT … ON CONFLICT (key) DO UPDATE`.
    func put(_ model: ModelSchema, _ item: Item) throws {
        let table = try catalog.table(for: model)
        let stored = try table.normalized(item)
        let keyText = try table.key(of: stored)
        try lockItem(table, key: keyText)
        var b = SQLBuilder()
        let key = b.bind(keyText)
        let json = b.bind(JSONValue.object(stored).jsonText)
        let changed = b.bind(stored["_lastChangedAt"]?.intValue)
        let deleted = b.bind(stored["_deleted"]?.boolValue)
        let ttl = b.bind(stored["_ttl"]?.intValue)
        let sql = """
            INSERT INTO \(table.qualifiedName) (key, item, "_lastChangedAt", "_deleted", "_ttl")
            VALUES (\(key), \(json)::jsonb, \(changed), \(deleted), \(ttl))
            ON CONFLICT (key) DO UPDATE SET item = EXCLUDED.item, "_lastChangedAt" = EXCLUDED."_lastChangedAt",
                "_deleted" = EXCLUDED."_deleted", "_ttl" = EXCLUDED."_ttl"
            """
        try connection.run("write an item of \(model.name)", sql, b)
    }

    /// An insert that leaves a stored item alone (`ON CONFLICT (key) DO NOTHING`): whether the
    /// item went in. The unique index decides, so an item another transaction inserts at the
    /// same time is never overwritten, with or without its item lock.
    func putIfAbsent(_ model: ModelSchema, _ item: Item) throws -> Bool {
        let table = try catalog.table(for: model)
        let stored = try table.normalized(item)
        var b = SQLBuilder()
        let sql = """
            INSERT INTO \(table.qualifiedName) (key, item, "_lastChangedAt", "_deleted", "_ttl")
            VALUES (\(b.bind(try table.key(of: stored))), \(b.bind(JSONValue.object(stored).jsonText))::jsonb,
                \(b.bind(stored["_lastChangedAt"]?.intValue)), \(b.bind(stored["_deleted"]?.boolValue)), \(b.bind(stored["_ttl"]?.intValue)))
            ON CONFLICT (key) DO NOTHING
            """
        return (try connection.run("create an item of \(model.name)", sql, b).metadata.rows ?? 0) > 0
    }

    @discardableResult
    func remove(_ model: ModelSchema, key: Item) throws -> Bool {
        let table = try catalog.table(for: model)
        let keyText = try table.key(of: key)
        try lockItem(table, key: keyText)
        var b = SQLBuilder()
        let sql = "DELETE FROM \(table.qualifiedName) WHERE key = \(b.bind(keyText))"
        return (try connection.run("remove an item of \(model.name)", sql, b).metadata.rows ?? 0) > 0
    }

    @discardableResult
    func removeAll(_ model: ModelSchema) throws -> Int {
        let table = try catalog.table(for: model)
        return try connection.run("remove the items of \(model.name)", "DELETE FROM \(table.qualifiedName)").metadata.rows ?? 0
    }
}

/// The tables of a schema, by model name.
struct PostgresCatalog: Sendable {
    let schema: String
    let tables: [String: PostgresModelTable]

    /// - Throws: ``AppSyncError`` (`InternalFailure`) for a model named like a sync log table,
    ///   or a key or index naming a field the model does not store.
    init(_ amplify: AmplifySchema, schema: String) throws {
        self.schema = schema
        var tables: [String: PostgresModelTable] = [:]
        let reserved = Set(PostgresSyncLog.tableNames)
        for model in amplify.models {
            guard !reserved.contains(model.name) else {
                throw AppSyncError(.internalFailure, "Model name '\(model.name)' clashes with a DeltaSync table in PostgreSQL. Rename the model.")
            }
            tables[model.name] = try PostgresModelTable(model, schema: schema)
        }
        self.tables = tables
    }

    func table(for model: ModelSchema) throws -> PostgresModelTable {
        guard let table = tables[model.name] else {
            throw AppSyncError(.internalFailure, "Model \(model.name) is not in the schema this PostgresItemStore was opened with. Open the store with the schema that declares it.")
        }
        return table
    }

    /// `"schema"."name"`.
    func qualified(_ name: String) -> String {
        PostgresSQL.identifier(schema) + "." + PostgresSQL.identifier(name)
    }

    /// Model tables, sorted by name (a fixed order for DDL and checkpoints).
    var sortedTables: [PostgresModelTable] { tables.values.sorted { $0.name < $1.name } }
}
