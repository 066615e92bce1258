import DeltaSyncCore
import DeltaSyncSchema

/// The versioned-data-source side of a store: a change clock, the delta log that delta syncs
/// read, the conflict log users debug with, and expiry of old deltas and tombstones.
///
/// Everything here runs inside the same transactions as item writes, so a change, its delta row
/// and its change time commit together or not at all.
public protocol SyncLogWriter {
    /// A change time in epoch milliseconds: at least `now`, above the previous change of every
    /// item the transaction read, above every sync's `startedAt` (``ItemStore/stampSync(now:)``)
    /// before it, and strictly greater than every time this process committed before (across
    /// restarts too). A store one process writes at a time (SQLite) makes it strictly greater
    /// than every time returned before; on a store several processes write at once
    /// (PostgreSQL), two processes' writes may share a time. Writes stamp their
    /// `_lastChangedAt` with it.
    func stampChange(now: Int) throws -> Int

    /// Appends the item as it is after a change (the full item, tombstones included).
    func appendDelta(_ model: ModelSchema, item: Item, changedAt: Int) throws

    /// Keeps a record of a conflict and how it was settled.
    func recordConflict(_ record: ConflictRecord) throws

    /// Removes the delta log entries and conflict records of one model, or of every model
    /// (`nil`), including models the schema no longer has. The change clock stays where it
    /// is, so changes after a reset are still later than every earlier `startedAt`.
    func removeSyncLog(of model: String?) throws

    /// Records the API shape a starting server serves the store with and returns the record
    /// before it (`nil` for a store no server recorded one in). Serving the recorded shape
    /// again keeps its `since`.
    func exchangeServedShape(_ shape: ServedShape) throws -> ServedShape?
}

public protocol SyncLogReader {
    /// One page of `model`'s changes made after `query.since`, oldest first.
    /// ``ItemPage/lastEvaluated`` resumes within the same `since`.
    func deltas(_ model: ModelSchema, _ query: DeltaQuery) throws -> ItemPage

    /// The most recent conflicts, newest first, optionally of one model only.
    func conflicts(model: String?, limit: Int) throws -> [ConflictRecord]

    /// The last change time handed out by ``SyncLogWriter/stampChange(now:)`` (epoch ms).
    func changeClock() throws -> Int

    /// How many delta log entries the model has.
    func deltaCount(of model: ModelSchema) throws -> Int

    /// The model's newest delta log entries, newest first: what a person inspecting the log
    /// looks for, without reading the rest of it.
    func latestDeltas(_ model: ModelSchema, limit: Int) throws -> [Item]
}

/// A request for delta log entries.
public struct DeltaQuery: Sendable, Equatable {
    /// Only changes with a change time strictly greater than this (epoch ms).
    public var since: Int
    /// Applied to each entry's item after reading (entries evaluated count toward `limit`).
    public var filter: QueryPredicate
    public var limit: Int
    public var after: [JSONValue]?

    public init(since: Int, filter: QueryPredicate = .all, limit: Int = 100, after: [JSONValue]? = nil) {
        self.since = since
        self.filter = filter
        self.limit = limit
        self.after = after
    }
}

/// A version conflict on a mutation and its outcome, as the admin endpoint lists them.
public struct ConflictRecord: Sendable, Equatable, Codable {
    public var model: String
    /// The item's primary key values.
    public var key: Item
    /// `createX` / `updateX` / `deleteX`.
    public var mutation: String
    /// The `_version` the client sent (0 when missing).
    public var incomingVersion: Int
    /// The stored `_version` it was compared with.
    public var storedVersion: Int
    /// `AUTOMERGE`, `OPTIMISTIC_CONCURRENCY` or `LAMBDA`.
    public var handler: String
    /// `merged`, `rejected`, `resolved`, `removed`, or `error: <reason>`.
    public var outcome: String
    /// The version stored after the outcome, when something was written.
    public var resultVersion: Int?
    /// When it happened, epoch milliseconds.
    public var at: Int

    public init(
        model: String, key: Item, mutation: String, incomingVersion: Int, storedVersion: Int,
        handler: String, outcome: String, resultVersion: Int?, at: Int
    ) {
        self.model = model
        self.key = key
        self.mutation = mutation
        self.incomingVersion = incomingVersion
        self.storedVersion = storedVersion
        self.handler = handler
        self.outcome = outcome
        self.resultVersion = resultVersion
        self.at = at
    }
}

/// What ``ItemStore/purgeExpired(deltasBefore:tombstonesExpiredBy:)`` removed.
public struct PurgeResult: Sendable, Equatable {
    public var deltas: Int
    public var tombstones: Int

    public init(deltas: Int, tombstones: Int) {
        self.deltas = deltas
        self.tombstones = tombstones
    }
}
