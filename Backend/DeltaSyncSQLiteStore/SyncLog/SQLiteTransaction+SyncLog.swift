import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncStorage
import GRDB

// The sync log in the caller's transaction: a change, its clock tick and its delta row commit
// or roll back together. Every statement here has fixed SQL, so all are cached.
extension SQLiteTransaction {
    // MARK: - Writing

    func stampChange(now: Int) throws -> Int {
        try db.cachedStatement(sql: SyncLogTables.stampSQL).execute(arguments: [now])
        guard db.changesCount == 1, let stamp = try Int.fetchOne(db.cachedStatement(sql: SyncLogTables.clockSQL)) else {
            throw AppSyncError(.internalFailure, "The change clock row is missing from \(SyncLogTables.clock). Reopen the store to recreate it.")
        }
        return stamp
    }

    /// - Throws: ``AppSyncError`` (`ValidationException`) when the item lacks a primary key value.
    func appendDelta(_ model: ModelSchema, item: Item, changedAt: Int) throws {
        _ = try catalog.table(for: model)  // a model this store holds
        let key = try model.keyValues(of: item)
        // `put` stores a missing `_version` as 1; the delta says the same.
        let version = item["_version"]?.intValue ?? 1
        let statement = try db.cachedStatement(sql: SyncLogTables.appendDeltaSQL)
        try statement.execute(arguments: [
            model.name, changedAt, JSONValue.object(key).jsonText, version, JSONValue.object(item).jsonText,
        ])
    }

    func recordConflict(_ record: ConflictRecord) throws {
        let insert = try db.cachedStatement(sql: SyncLogTables.recordConflictSQL)
        try insert.execute(arguments: [
            record.model, JSONValue.object(record.key).jsonText, record.mutation, record.incomingVersion,
            record.storedVersion, record.handler, record.outcome, record.resultVersion, record.at,
        ])
        let oldest = db.lastInsertedRowID - Int64(SyncLogTables.conflictCapacity)
        if oldest > 0 {
            try db.cachedStatement(sql: SyncLogTables.trimConflictsSQL).execute(arguments: [oldest])
        }
    }

    func exchangeServedShape(_ shape: ServedShape) throws -> ServedShape? {
        let read = { (key: String) in try String.fetchOne(self.db, sql: "SELECT value FROM deltasync_meta WHERE key = ?", arguments: [key]) }
        let recorded = try read(ServedShape.modeKey).map { mode in
            ServedShape(conflictDetection: mode, since: try read(ServedShape.sinceKey).flatMap { Int($0) } ?? 0)
        }
        let next = ServedShape.next(after: recorded, serving: shape)
        for (key, value) in [(ServedShape.modeKey, next.conflictDetection), (ServedShape.sinceKey, String(next.since))] {
            try db.execute(sql: "INSERT OR REPLACE INTO deltasync_meta (key, value) VALUES (?, ?)", arguments: [key, value])
        }
        return recorded
    }

    func removeSyncLog(of model: String?) throws {
        if let model {
            try db.execute(sql: "DELETE FROM deltasync_delta WHERE model = ?", arguments: [model])
            try db.execute(sql: "DELETE FROM deltasync_conflicts WHERE model = ?", arguments: [model])
        } else {
            try db.execute(sql: "DELETE FROM deltasync_delta")
            try db.execute(sql: "DELETE FROM deltasync_conflicts")
        }
    }

    // MARK: - Reading

    func changeClock() throws -> Int {
        guard let last = try Int.fetchOne(db.cachedStatement(sql: SyncLogTables.clockSQL)) else {
            throw AppSyncError(.internalFailure, "The change clock row is missing from \(SyncLogTables.clock). Reopen the store to recreate it.")
        }
        return last
    }

    /// Reads up to `limit + 1` rows of the (model, changedAt, seq) index from the later of
    /// `since` and the cursor: the first `limit` make the page, the extra one only tells whether
    /// a next page exists. The filter runs on the decoded items.
    ///
    /// - Throws: ``AppSyncError``: `InvalidArgumentException` for a limit below 1 or a cursor
    ///   this method did not return; `InternalFailure` for a delta row that is not an item.
    func deltas(_ model: ModelSchema, _ query: DeltaQuery) throws -> ItemPage {
        let table = try catalog.table(for: model)
        let (sql, arguments) = try Self.deltasSQL(model, query)
        let statement = try db.cachedStatement(sql: sql)

        // JSON keeps a Float field's whole numbers as integers; the table reads them back as
        // doubles (REAL columns), and a delta item should equal what `get` returns.
        let realFields = table.columns.filter { $0.kind == .real }.map(\.name)
        let filtered = query.filter != .all
        let rows = try Row.fetchCursor(statement, arguments: arguments)
        var items: [Item] = []
        let end = try PageReader.read(
            rows, limit: query.limit,
            evaluate: { row in
                var item = try Self.decodeObject(row[2], model: model.name)
                for name in realFields {
                    if case .int(let i) = item[name] { item[name] = .double(Double(i)) }
                }
                if !filtered || query.filter.matches(item) { items.append(item) }
            },
            position: { row in [.int(row[1]), .int(row[0])] })
        return ItemPage(items: items, lastEvaluated: end.lastEvaluated, scanned: end.scanned)
    }

    /// The statement of one delta page and its arguments: what ``deltas(_:_:)`` runs and
    /// ``deltaPlan(_:_:)`` explains.
    static func deltasSQL(_ model: ModelSchema, _ query: DeltaQuery) throws -> (String, StatementArguments) {
        guard query.limit >= 1 else {
            throw AppSyncError(.invalidArgument, "limit must be at least 1; it was \(query.limit).")
        }
        let readLimit = query.limit == Int.max ? query.limit : query.limit + 1
        if let after = query.after {
            guard after.count == 2, case .int(let changedAt) = after[0], case .int(let seq) = after[1] else {
                throw AppSyncError(.invalidArgument, "The nextToken does not belong to a delta sync of \(model.name). Pass the token the previous page returned, with the same arguments.")
            }
            // A cursor at or before `since` cannot come from this window: `since` bounds the read.
            if changedAt > query.since { return (SyncLogTables.deltasAfterSQL, [model.name, changedAt, seq, readLimit]) }
        }
        return (SyncLogTables.deltasSQL, [model.name, query.since, readLimit])
    }

    func deltaCount(of model: ModelSchema) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM deltasync_delta WHERE model = ?", arguments: [model.name]) ?? 0
    }

    /// The (model, changedAt, seq) index read backwards.
    func latestDeltas(_ model: ModelSchema, limit: Int) throws -> [Item] {
        guard limit >= 1 else { return [] }
        let rows = try Row.fetchAll(
            db, sql: "SELECT item FROM deltasync_delta WHERE model = ? ORDER BY changedAt DESC, seq DESC LIMIT ?",
            arguments: [model.name, limit])
        return try rows.map { try Self.decodeObject($0[0], model: model.name) }
    }

    func conflicts(model: String?, limit: Int) throws -> [ConflictRecord] {
        guard limit >= 1 else { return [] }
        let rows: [Row]
        if let model {
            rows = try Row.fetchAll(db.cachedStatement(sql: SyncLogTables.modelConflictsSQL), arguments: [model, limit])
        } else {
            rows = try Row.fetchAll(db.cachedStatement(sql: SyncLogTables.conflictsSQL), arguments: [limit])
        }
        return try rows.map { row in
            ConflictRecord(
                model: row[0], key: try Self.decodeObject(row[1], model: row[0]), mutation: row[2],
                incomingVersion: row[3], storedVersion: row[4], handler: row[5], outcome: row[6],
                resultVersion: row[7], at: row[8]
            )
        }
    }

    /// An object this store wrote as JSON text (an item or a key).
    private static func decodeObject(_ text: String, model: String) throws -> Item {
        guard let parsed = try? JSONValue(parsing: text), case .object(let item) = parsed else {
            throw AppSyncError(.internalFailure, "A sync log row of \(model) does not hold a JSON object. The database file was changed outside DeltaSync.")
        }
        return item
    }
}
