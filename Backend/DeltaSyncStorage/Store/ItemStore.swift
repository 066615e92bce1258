import DeltaSyncCore
import DeltaSyncSchema

/// Where items live. SQLite (`SQLiteItemStore`, in DeltaSyncSQLiteStore) is the embedded
/// default and PostgreSQL (`PostgresItemStore`) the shared one; each implements this protocol
/// in its own target, so the contract links no database library.
///
/// Stores are deliberately plain: they read and write whole items and run key/index/scan
/// queries. Versions, conditions and conflicts are decided by the caller inside one
/// ``write(_:)`` transaction, which every store serialises, so a read-check-write sequence
/// never interleaves with another writer.
///
/// ```swift
/// let store = try SQLiteItemStore(location: .inMemory, schema: schema)
/// try await store.write { tx in
///     try tx.put(post, ["id": "1", "title": "Hello", "_version": 1])
/// }
/// let item = try await store.read { tx in try tx.get(post, key: ["id": "1"]) }
/// ```
public protocol ItemStore: Sendable {
    /// Runs `body` in a read transaction that sees one consistent snapshot.
    func read<T: Sendable>(_ body: @Sendable (any ItemReadTransaction) throws -> T) async throws -> T

    /// The item of `model` with `key` (a tombstone too), or `nil`: one read of one row.
    ///
    /// A read of one statement needs no transaction around it, and a transaction costs more
    /// than the read: GRDB prepares its `BEGIN` and `COMMIT` anew each time (a request whose
    /// `belongsTo` fields read thousands of items spent a fifth of its time on them), and on
    /// PostgreSQL they are two more round trips. The default is a ``read(_:)``.
    func get(_ model: ModelSchema, key: Item) async throws -> Item?

    /// Runs `body` in a write transaction, serialised with every other write. Everything
    /// `body` wrote is durable when this returns; if `body` throws, nothing it wrote remains.
    func write<T: Sendable>(_ body: @Sendable (any ItemWriteTransaction) throws -> T) async throws -> T

    /// Runs `body` in a write transaction that no other write runs beside: what resets, seeds
    /// and restores use, which write many items at once. Stores that run one writer at a time
    /// anyway (SQLite) make it ``write(_:)``.
    func writeAlone<T: Sendable>(_ body: @Sendable (any ItemWriteTransaction) throws -> T) async throws -> T

    /// A sync's `startedAt`: a change time that every change committed before it is at or
    /// below, or visible to every read that starts after this returns, and that every change
    /// made after this returns is above. Stores whose writes run one at a time make it
    /// ``SyncLogWriter/stampChange(now:)`` in a write transaction.
    func stampSync(now: Int) async throws -> Int

    /// Stores a new item and its delta log entry as one change, unless an item with `key` is
    /// stored already (a tombstone counts): a create mutation. `build` gets the change time and
    /// returns the item to store, `_lastChangedAt` set to that time. Returns the stored item, or
    /// `nil` when the key is taken.
    ///
    /// ```swift
    /// let created = try await store.insert(post, key: ["id": "1"], now: now) { changedAt in
    ///     ["id": "1", "title": "Hello", "_version": 1, "_lastChangedAt": .int(changedAt)]
    /// }
    /// ```
    ///
    /// `build` may run more than once (a store that guessed the time too low asks again), so it
    /// must only compute. Stores whose writes run one at a time make it a ``write(_:)`` that
    /// reads the key, stamps, puts and appends; PostgreSQL makes one prepared call. Beside other
    /// writers, this is the way to add an item: a `get` that finds nothing followed by a `put`
    /// may overwrite an item another process inserts in between.
    func insert(_ model: ModelSchema, key: Item, now: Int, _ build: @Sendable (_ changedAt: Int) throws -> Item) async throws -> Item?

    /// Removes delta log entries changed before `deltasBefore` (epoch ms) and tombstones whose
    /// `_ttl` is at or before `tombstonesExpiredBy` (epoch seconds). Works in small batches so
    /// that mutations are never blocked for long.
    func purgeExpired(deltasBefore: Int, tombstonesExpiredBy: Int) async throws -> PurgeResult

    /// A copy of everything the store holds (items, sync log, change clock), kept in memory,
    /// which ``restore(_:)`` puts back whole: how a test suite returns to a known state in
    /// milliseconds.
    func checkpoint() async throws -> any StoreCheckpoint

    /// Replaces everything the store holds with a checkpoint this store made. The change clock
    /// never goes back: changes after a restore are still later than every earlier one.
    ///
    /// - Throws: ``AppSyncError`` (`BadRequest`) for a checkpoint of another kind of store.
    func restore(_ checkpoint: any StoreCheckpoint) async throws

    /// Writes everything the store holds to a file at `path` (replacing nothing: the file must
    /// not exist) that ``restore(fromFile:)`` of a store of the same schema puts back.
    func export(toFile path: String) async throws

    /// Replaces everything the store holds with a file ``export(toFile:)`` wrote, checked first.
    /// The change clock never goes back.
    ///
    /// - Throws: ``AppSyncError`` (`BadRequest`) for a file that is not such an export, one
    ///   made for another schema, a damaged one, or one holding objects the store never makes
    ///   (triggers, views); nothing is changed then.
    func restore(fromFile path: String) async throws
}

extension ItemStore {
    public func get(_ model: ModelSchema, key: Item) async throws -> Item? {
        try await read { tx in try tx.get(model, key: key) }
    }

    public func writeAlone<T: Sendable>(_ body: @Sendable (any ItemWriteTransaction) throws -> T) async throws -> T {
        try await write(body)
    }

    public func stampSync(now: Int) async throws -> Int {
        try await write { tx in try tx.stampChange(now: now) }
    }

    public func insert(_ model: ModelSchema, key: Item, now: Int, _ build: @Sendable (_ changedAt: Int) throws -> Item) async throws -> Item? {
        try await write { tx in
            guard try tx.get(model, key: key) == nil else { return nil }
            let changedAt = try tx.stampChange(now: now)
            let item = try build(changedAt)
            try tx.putLogged(model, item, changedAt: changedAt)
            return item
        }
    }
}

/// What ``ItemStore/checkpoint()`` returns: opaque, for the same store's ``ItemStore/restore(_:)``.
public protocol StoreCheckpoint: Sendable {}

/// Reading inside a transaction.
public protocol ItemReadTransaction: SyncLogReader {
    /// The item with these primary key values (`["id": "1"]`, or every key field of a
    /// composite key), or `nil`.
    func get(_ model: ModelSchema, key: Item) throws -> Item?

    /// One page of a scan or index query, each item that passes the filter handed to `body`
    /// as it is read instead of being collected: a caller that turns items into something
    /// else (JSON) does it while the item is still in the CPU cache.
    ///
    ///     var titles: [String] = []
    ///     let end = try tx.query(post, ItemQuery(limit: 50)) { item in
    ///         titles.append(item["title"]?.stringValue ?? "")
    ///     }
    ///     // end.lastEvaluated: pass it as the next query's `after`.
    func query(_ model: ModelSchema, _ query: ItemQuery, each body: (Item) throws -> Void) throws -> PageEnd

    /// ``query(_:_:each:)`` handing each item over as the row the store is stepped on, read by
    /// `fields` (``StoredRow``), which SQLite does without building items. The default wraps
    /// each item (``ItemRow``).
    func query(_ model: ModelSchema, _ query: ItemQuery, fields: [String], rows body: (any StoredRow) throws -> Void) throws -> PageEnd

    /// How many items the model has, and how many of them are tombstones.
    func count(_ model: ModelSchema) throws -> (items: Int, tombstones: Int)

    /// The database's plan for the page ``query(_:_:each:)`` reads for `query`: the same SQL
    /// with the same values, in this transaction. For diagnostics (`x-deltasync-explain`), never
    /// on a request's ordinary path: PostgreSQL runs the query again to count what it read
    /// (`EXPLAIN ANALYZE`). `nil` for a store that cannot tell.
    ///
    ///     let page = try tx.query(post, query)
    ///     let report = try tx.queryPlan(post, query)  // report?.index == "byBlog"
    func queryPlan(_ model: ModelSchema, _ query: ItemQuery) throws -> QueryPlanReport?

    /// The database's plan for the page ``SyncLogReader/deltas(_:_:)`` reads for `query`, as
    /// ``queryPlan(_:_:)`` for items; the delta log's index is `"changedAt"`.
    func deltaPlan(_ model: ModelSchema, _ query: DeltaQuery) throws -> QueryPlanReport?
}

extension ItemReadTransaction {
    /// A store that cannot tell its database's plan reports none.
    public func queryPlan(_ model: ModelSchema, _ query: ItemQuery) throws -> QueryPlanReport? { nil }

    /// A store that cannot tell its database's plan reports none.
    public func deltaPlan(_ model: ModelSchema, _ query: DeltaQuery) throws -> QueryPlanReport? { nil }

    /// One page of a scan or index query.
    public func query(_ model: ModelSchema, _ query: ItemQuery) throws -> ItemPage {
        var items: [Item] = []
        let end = try self.query(model, query) { items.append($0) }
        return ItemPage(items: items, lastEvaluated: end.lastEvaluated, scanned: end.scanned)
    }
}

/// Writing inside a transaction.
public protocol ItemWriteTransaction: ItemReadTransaction, SyncLogWriter {
    /// Inserts or replaces the whole item (keyed by its primary key fields).
    func put(_ model: ModelSchema, _ item: Item) throws

    /// Removes the item with these key values; `true` if one was there.
    @discardableResult
    func remove(_ model: ModelSchema, key: Item) throws -> Bool

    /// Removes every item of the model, tombstones included; returns how many there were.
    /// What a fixture reset and a snapshot import start from.
    @discardableResult
    func removeAll(_ model: ModelSchema) throws -> Int

    /// A mutation's change: ``put(_:_:)`` of the item, then
    /// ``SyncLogWriter/appendDelta(_:item:changedAt:)`` of it at `changedAt`, which a store may
    /// send as one statement (PostgreSQL does).
    ///
    ///     let changedAt = try tx.stampChange(now: now)
    ///     item["_lastChangedAt"] = .int(changedAt)
    ///     try tx.putLogged(post, item, changedAt: changedAt)
    func putLogged(_ model: ModelSchema, _ item: Item, changedAt: Int) throws
}

extension ItemWriteTransaction {
    public func putLogged(_ model: ModelSchema, _ item: Item, changedAt: Int) throws {
        try put(model, item)
        try appendDelta(model, item: item, changedAt: changedAt)
    }
}

/// A page request: how to reach items, which to keep, and where to resume.
public struct ItemQuery: Sendable, Equatable {
    public enum Access: Sendable, Equatable {
        /// Every item, in primary key order.
        case scan
        /// Items whose partition field equals `partition`, in sort key order. `index` `nil`
        /// means the primary key; otherwise a name from ``Model/indexes``. Items missing the
        /// index's partition or sort key values are not in the index (as in a DynamoDB GSI).
        case index(String?, partition: JSONValue, sortKey: SortKeyCondition?)
    }

    public var access: Access
    /// Applied after the page's items are read: a page may hold fewer than `limit` items.
    public var filter: QueryPredicate
    /// How many items to evaluate at most (DynamoDB's `Limit`).
    public var limit: Int
    /// Resume after this position: the ``ItemPage/lastEvaluated`` of the previous page.
    public var after: [JSONValue]?
    /// Reverse the order (`sortDirection: DESC`).
    public var descending: Bool
    /// Only items whose field holds one of these values, as a condition of the read itself
    /// (unlike ``filter``, the items it leaves out are not counted against ``limit``): what
    /// owner rules narrow a caller's reads to. A store may serve it from an index.
    public var within: FieldValues?

    public init(
        access: Access = .scan, filter: QueryPredicate = .all, limit: Int = 100, after: [JSONValue]? = nil, descending: Bool = false,
        within: FieldValues? = nil
    ) {
        self.access = access
        self.filter = filter
        self.limit = limit
        self.after = after
        self.descending = descending
        self.within = within
    }
}

/// A field and the values an item's field must equal one of (``ItemQuery/within``).
public struct FieldValues: Sendable, Equatable {
    public var field: String
    public var values: [JSONValue]

    public init(field: String, values: [JSONValue]) {
        self.field = field
        self.values = values
    }
}

/// A condition on an index's sort key fields. Values are given for a prefix of the sort key
/// fields (all of them for a single sort key); earlier values must match exactly and the
/// operator applies to the tuple, as DynamoDB applies it to a composite `a#b` key.
public enum SortKeyCondition: Sendable, Equatable {
    case eq([JSONValue])
    case le([JSONValue])
    case lt([JSONValue])
    case ge([JSONValue])
    case gt([JSONValue])
    case between([JSONValue], [JSONValue])
    /// The last given value is a string prefix; the ones before it match exactly.
    case beginsWith([JSONValue])
}

/// Where a page read stopped.
public struct PageEnd: Sendable, Equatable {
    /// Where the next page starts, or `nil` when nothing is left. Opaque to callers: pass it
    /// back as ``ItemQuery/after``.
    public var lastEvaluated: [JSONValue]?
    /// How many items were read to produce this page (before the filter).
    public var scanned: Int

    public init(lastEvaluated: [JSONValue]?, scanned: Int) {
        self.lastEvaluated = lastEvaluated
        self.scanned = scanned
    }
}

/// One page of items.
public struct ItemPage: Sendable, Equatable {
    /// The items that passed the filter, in order.
    public var items: [Item]
    /// Where the next page starts, or `nil` when nothing is left. Opaque to callers: pass it
    /// back as ``ItemQuery/after``.
    public var lastEvaluated: [JSONValue]?
    /// How many items were read to produce this page (before the filter).
    public var scanned: Int

    public init(items: [Item], lastEvaluated: [JSONValue]?, scanned: Int) {
        self.items = items
        self.lastEvaluated = lastEvaluated
        self.scanned = scanned
    }
}
