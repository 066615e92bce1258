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

    let connection: BlockingSession
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
        /// Whether this `.write` transaction holds the store's lock.
        var storeLocked = false
        /// The floor, read after the store's lock: it cannot move while the lock is held shared.
        var floor: Int?
    }

    /// The store's advisory lock: a `.write` transaction takes it shared with its first item
    /// lock, stamp or write (``lockStore()``); an `.alone` one holds it exclusively from its start.
    let storeLockKey: Int64

    init(
        connection: BlockingSession, catalog: PostgresCatalog, mode: Mode = .alone, storeLockKey: Int64 = 0,
        processClock: NIOLockedValueBox<Int> = .init(0)
    ) {
        self.connection = connection
        self.catalog = catalog
        self.mode = mode
        self.storeLockKey = storeLockKey
        self.processClock = processClock
    }

    /// In a `.write` transaction, the store's lock, shared, before the first write or stamp:
    /// usually taken with the first item's lock (``lockAndRead(_:key:)``), else here, in a
    /// statement of its own.
    func lockStore() throws {
        guard mode == .write, !touched.withLockedValue({ $0.storeLocked }) else { return }
        var b = SQLBuilder()
        try connection.run("take the write lock", "SELECT pg_advisory_xact_lock_shared(\(b.bind(Int(storeLockKey))))", b)
        touched.withLockedValue { $0.storeLocked = true }
    }

    /// In a `.write` transaction, takes the item's own lock (once per item) before the item is
    /// read or written: two transactions on one item run one after the other, others at once.
    /// One call of `deltasync_lock_read` (``PostgresFunctions``) takes it (the store's lock
    /// first, when the transaction holds none yet) and reads the item and the floor after it, in
    /// statements of the function's own, which see the previous holder's commit. Returns the
    /// item's JSON as read then (`.some(nil)` for none); `nil` when no lock was taken (another
    /// mode, or the item is locked already).
    private func lockAndRead(_ table: PostgresModelTable, key: String) throws -> String?? {
        guard mode == .write else { return nil }
        let lockKey = PostgresSQL.lockKey("deltasync.item:\(catalog.schema):\(table.name):\(key)")
        let (first, storeLocked) = touched.withLockedValue { ($0.items.insert(lockKey).inserted, $0.storeLocked) }
        guard first else { return nil }
        var b = SQLBuilder()
        let storeLock: Int? = storeLocked ? nil : Int(storeLockKey)
        let function = catalog.qualified(PostgresFunctions.lockRead)
        let sql = "SELECT found_item, clock_floor FROM \(function)(\(b.bind(storeLock))::bigint, \(b.bind(Int(lockKey))), \(b.bind(table.name)), \(b.bind(key)))"
        let row = try connection.run("lock an item of \(table.name)", sql, b).rows.first
        let item = try row?.column(0, String.self)
        let floor = try row?.column(1, Int.self)
        touched.withLockedValue { touched in
            touched.storeLocked = true
            if touched.floor == nil { touched.floor = floor }
        }
        return .some(item)
    }

    // MARK: - Reading

    func get(_ model: ModelSchema, key: Item) throws -> Item? {
        let table = try catalog.table(for: model)
        let keyText = try table.key(of: key)
        let text: String?
        if let locked = try lockAndRead(table, key: keyText) {
            text = locked
        } else {
            var b = SQLBuilder()
            let sql = "SELECT item::text FROM \(table.qualifiedName) WHERE key = \(b.bind(keyText))"
            text = try connection.value(String.self, "read an item of \(model.name)", sql, b)
        }
        guard let text else { return nil }
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

    /// The item as stored and its key, after its lock and the store's (in a `.write` transaction).
    private func lockedRow(_ model: ModelSchema, _ item: Item) throws -> (table: PostgresModelTable, stored: Item, key: String) {
        let table = try catalog.table(for: model)
        let stored = try table.normalized(item)
        let key = try table.key(of: stored)
        _ = try lockAndRead(table, key: key)
        try lockStore()
        return (table, stored, key)
    }

    /// The bound values of a row, in ``PostgresModelTable/rowColumns``' order.
    private static func rowValues(_ stored: Item, key: String, _ b: inout SQLBuilder) -> String {
        "(\(b.bind(key)), \(b.bind(JSONValue.object(stored).jsonText))::jsonb, \(b.bind(stored["_lastChangedAt"]?.intValue)), "
            + "\(b.bind(stored["_deleted"]?.boolValue)), \(b.bind(stored["_ttl"]?.intValue)))"
    }

    /// An upsert: `INSERT … ON CONFLICT (key) DO UPDATE`.
    func put(_ model: ModelSchema, _ item: Item) throws {
        let (table, stored, key) = try lockedRow(model, item)
        var b = SQLBuilder()
        let sql = """
            INSERT INTO \(table.qualifiedName) \(PostgresModelTable.rowColumns)
            VALUES \(Self.rowValues(stored, key: key, &b)) \(PostgresModelTable.replaceOnConflict)
            """
        try connection.run("write an item of \(model.name)", sql, b)
    }

    /// ``put(_:_:)`` and ``appendDelta(_:item:changedAt:)`` in one call of
    /// `deltasync_put_logged` (``PostgresFunctions``).
    func putLogged(_ model: ModelSchema, _ item: Item, changedAt: Int) throws {
        let (_, stored, key) = try lockedRow(model, item)
        var b = SQLBuilder()
        let arguments = [
            b.bind(model.name), b.bind(key), b.bind(JSONValue.object(stored).jsonText) + "::jsonb", b.bind(changedAt), b.bind(stored["_deleted"]?.boolValue) + "::boolean",
            b.bind(stored["_ttl"]?.intValue) + "::bigint", b.bind(JSONValue.object(try model.keyValues(of: item)).jsonText),
            // `appendDelta` logs the item as given (a missing `_version` as 1); usually it is `stored`.
            b.bind(item["_version"]?.intValue ?? 1), b.bind(item == stored ? nil : JSONValue.object(item).jsonText) + "::jsonb",
        ]
        let sql = "SELECT \(catalog.qualified(PostgresFunctions.putLogged))(\(arguments.joined(separator: ", ")))"
        try connection.run("write an item of \(model.name)", sql, b)
    }

    /// An insert that leaves a stored item alone (`ON CONFLICT (key) DO NOTHING`): whether the
    /// item went in. The unique index decides, so an item another transaction inserts at the
    /// same time is never overwritten, with or without its item lock.
    func putIfAbsent(_ model: ModelSchema, _ item: Item) throws -> Bool {
        let table = try catalog.table(for: model)
        let stored = try table.normalized(item)
        try lockStore()
        var b = SQLBuilder()
        let sql = """
            INSERT INTO \(table.qualifiedName) \(PostgresModelTable.rowColumns)
            VALUES \(Self.rowValues(stored, key: try table.key(of: stored), &b)) ON CONFLICT (key) DO NOTHING
            """
        return (try connection.run("create an item of \(model.name)", sql, b).metadata.rows ?? 0) > 0
    }

    @discardableResult
    func remove(_ model: ModelSchema, key: Item) throws -> Bool {
        let table = try catalog.table(for: model)
        let keyText = try table.key(of: key)
        _ = try lockAndRead(table, key: keyText)
        try lockStore()
        var b = SQLBuilder()
        let sql = "DELETE FROM \(table.qualifiedName) WHERE key = \(b.bind(keyText))"
        return (try connection.run("remove an item of \(model.name)", sql, b).metadata.rows ?? 0) > 0
    }

    @discardableResult
    func removeAll(_ model: ModelSchema) throws -> Int {
        let table = try catalog.table(for: model)
        try lockStore()
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
