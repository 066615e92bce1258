import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncStorage

// The sync log in the caller's transaction: a change, its clock tick and its delta row commit
// or roll back together.
extension PostgresTransaction {
    // MARK: - Writing

    /// A change time; see "Why `startedAt` is safe on PostgreSQL" in docs/architecture.md.
    ///
    /// - `.alone` (a sync's stamp, a seed): `GREATEST(last + 1, now)` written to the one-row
    ///   clock, the floor every later write stamps above; no write runs beside it.
    /// - `.write`: above the floor (read, not written: the clock row's lock would serialise
    ///   every write again), above the item's previous change time (so an item's times grow),
    ///   and above this process's previous stamp (strictly increasing within a process, even
    ///   with the fixture clock set back). Two writes in two processes may share a time; the
    ///   delta log orders them by its sequence.
    func stampChange(now: Int) throws -> Int {
        let clock = catalog.qualified(PostgresSyncLog.clock)
        let stamp: Int
        if mode == .write {
            let floor: Int
            if let known = touched.withLockedValue({ $0.floor }) {
                floor = known
            } else {
                try lockStore()
                guard let read = try connection.value(Int.self, "read the change clock", "SELECT last FROM \(clock)") else {
                    throw AppSyncError(.internalFailure, "The change clock row is missing from \(PostgresSyncLog.clock). Reconnect the store to recreate it.")
                }
                floor = read
                touched.withLockedValue { $0.floor = read }
            }
            let processLast = processClock.withLockedValue { $0 }
            stamp = touched.withLockedValue { touched in
                // Above the item's previous time and this transaction's own earlier stamps.
                touched.latestChange = max(now, floor + 1, touched.latestChange + 1, processLast + 1)
                touched.stamped = max(touched.stamped, touched.latestChange)
                return touched.latestChange
            }
        } else {
            var b = SQLBuilder()
            let least = max(now, processClock.withLockedValue { $0 + 1 })
            let sql = "UPDATE \(clock) SET last = GREATEST(last + 1, \(b.bind(least))) WHERE id = 0 RETURNING last"
            guard let ticked = try connection.value(Int.self, "advance the change clock", sql, b) else {
                throw AppSyncError(.internalFailure, "The change clock row is missing from \(PostgresSyncLog.clock). Reconnect the store to recreate it.")
            }
            stamp = ticked
            touched.withLockedValue { $0.stamped = max($0.stamped, ticked) }
        }
        return stamp
    }

    /// - Throws: ``AppSyncError`` (`ValidationException`) when the item lacks a primary key value.
    func appendDelta(_ model: ModelSchema, item: Item, changedAt: Int) throws {
        _ = try catalog.table(for: model)  // a model this store holds
        try lockStore()
        let key = try model.keyValues(of: item)
        // `put` stores a missing `_version` as 1; the delta says the same.
        let version = item["_version"]?.intValue ?? 1
        var b = SQLBuilder()
        let sql = """
            INSERT INTO \(catalog.qualified(PostgresSyncLog.delta)) (model, changed_at, key, version, item)
            VALUES (\(b.bind(model.name)), \(b.bind(changedAt)), \(b.bind(JSONValue.object(key).jsonText)), \(b.bind(version)), \(b.bind(JSONValue.object(item).jsonText))::jsonb)
            """
        try connection.run("append to the delta log of \(model.name)", sql, b)
    }

    func recordConflict(_ record: ConflictRecord) throws {
        try lockStore()
        let conflicts = catalog.qualified(PostgresSyncLog.conflicts)
        var b = SQLBuilder()
        let values = [
            b.bind(record.model), b.bind(JSONValue.object(record.key).jsonText), b.bind(record.mutation),
            b.bind(record.incomingVersion), b.bind(record.storedVersion), b.bind(record.handler), b.bind(record.outcome),
            b.bind(record.resultVersion), b.bind(record.at),
        ]
        let sql = """
            INSERT INTO \(conflicts) (model, key, mutation, incoming_version, stored_version, handler, outcome, result_version, at)
            VALUES (\(values.joined(separator: ", "))) RETURNING seq
            """
        let seq = try connection.value(Int.self, "record a conflict", sql, b) ?? 0
        let oldest = seq - PostgresSyncLog.conflictCapacity
        if oldest > 0 {
            var trim = SQLBuilder()
            try connection.run("trim the conflict log", "DELETE FROM \(conflicts) WHERE seq <= \(trim.bind(oldest))", trim)
        }
    }

    func removeSyncLog(of model: String?) throws {
        try lockStore()
        for table in [PostgresSyncLog.delta, PostgresSyncLog.conflicts] {
            var b = SQLBuilder()
            var sql = "DELETE FROM \(catalog.qualified(table))"
            if let model { sql += " WHERE model = \(b.bind(model))" }
            try connection.run("clear the sync log", sql, b)
        }
    }

    func exchangeServedShape(_ shape: ServedShape) throws -> ServedShape? {
        try lockStore()
        let meta = catalog.qualified(PostgresSyncLog.meta)
        func read(_ key: String) throws -> String? {
            var b = SQLBuilder()
            return try connection.value(String.self, "read \(key)", "SELECT value FROM \(meta) WHERE key = \(b.bind(key))", b)
        }
        let recorded = try read(ServedShape.modeKey).map { mode in
            ServedShape(conflictDetection: mode, since: try read(ServedShape.sinceKey).flatMap { Int($0) } ?? 0)
        }
        let next = ServedShape.next(after: recorded, serving: shape)
        for (key, value) in [(ServedShape.modeKey, next.conflictDetection), (ServedShape.sinceKey, String(next.since))] {
            var b = SQLBuilder()
            try connection.run(
                "record \(key)",
                "INSERT INTO \(meta) (key, value) VALUES (\(b.bind(key)), \(b.bind(value))) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
                b)
        }
        return recorded
    }

    // MARK: - Reading

    /// The latest change time: the clock row (syncs and seeds write it), this process's stamps,
    /// and the delta log's latest (other processes' writes, which do not write the row).
    func changeClock() throws -> Int {
        let sql = """
            SELECT GREATEST((SELECT last FROM \(catalog.qualified(PostgresSyncLog.clock))),
                            (SELECT coalesce(max(changed_at), 0) FROM \(catalog.qualified(PostgresSyncLog.delta))))
            """
        guard let last = try connection.value(Int.self, "read the change clock", sql) else {
            throw AppSyncError(.internalFailure, "The change clock row is missing from \(PostgresSyncLog.clock). Reconnect the store to recreate it.")
        }
        return max(last, processClock.withLockedValue { $0 })
    }

    /// Reads up to `limit + 1` rows of the (model, changed_at, seq) index from the later of
    /// `since` and the cursor: the first `limit` make the page, the extra one only tells whether
    /// a next page exists. The filter runs on the decoded items.
    func deltas(_ model: ModelSchema, _ query: DeltaQuery) throws -> ItemPage {
        let table = try catalog.table(for: model)
        let (sql, b) = try deltasSQL(model, query)
        let rows = try connection.run("read the delta log of \(model.name)", sql, b).rows

        var items: [Item] = []
        var scanned = 0
        var last: [JSONValue]?
        var hasMore = false
        for row in rows {
            guard scanned < query.limit else {
                hasMore = true
                break
            }
            scanned += 1
            let item = try table.item(fromJSON: try row.column(2, String.self) ?? "")
            if query.filter == .all || query.filter.matches(item) { items.append(item) }
            if scanned == query.limit {
                last = [.int(try row.column(1, Int.self) ?? 0), .int(try row.column(0, Int.self) ?? 0)]
            }
        }
        return ItemPage(items: items, lastEvaluated: hasMore ? last : nil, scanned: scanned)
    }

    /// The SQL of one delta page and its values: what ``deltas(_:_:)`` runs and
    /// ``deltaPlan(_:_:)`` explains.
    func deltasSQL(_ model: ModelSchema, _ query: DeltaQuery) throws -> (String, SQLBuilder) {
        guard query.limit >= 1 else {
            throw AppSyncError(.invalidArgument, "limit must be at least 1; it was \(query.limit).")
        }
        var resume: (changedAt: Int, seq: Int)?
        if let after = query.after {
            guard after.count == 2, case .int(let changedAt) = after[0], case .int(let seq) = after[1] else {
                throw AppSyncError(.invalidArgument, "The nextToken does not belong to a delta sync of \(model.name). Pass the token the previous page returned, with the same arguments.")
            }
            // A cursor at or before `since` cannot come from this window: `since` bounds the read.
            if changedAt > query.since { resume = (changedAt, seq) }
        }
        var b = SQLBuilder()
        var sql = "SELECT seq, changed_at, item::text FROM \(catalog.qualified(PostgresSyncLog.delta)) WHERE model = \(b.bind(model.name)) AND "
        if let resume {
            sql += "(changed_at, seq) > (\(b.bind(resume.changedAt)), \(b.bind(resume.seq)))"
        } else {
            sql += "changed_at > \(b.bind(query.since))"
        }
        sql += " ORDER BY changed_at, seq"
        if query.limit < Int.max { sql += " LIMIT \(b.bind(query.limit + 1))" }
        return (sql, b)
    }

    func deltaCount(of model: ModelSchema) throws -> Int {
        var b = SQLBuilder()
        let sql = "SELECT count(*)::bigint FROM \(catalog.qualified(PostgresSyncLog.delta)) WHERE model = \(b.bind(model.name))"
        return try connection.value(Int.self, "count the deltas of \(model.name)", sql, b) ?? 0
    }

    /// The (model, changed_at, seq) index read backwards.
    func latestDeltas(_ model: ModelSchema, limit: Int) throws -> [Item] {
        guard limit >= 1 else { return [] }
        let table = try catalog.table(for: model)
        var b = SQLBuilder()
        let sql = """
            SELECT item::text FROM \(catalog.qualified(PostgresSyncLog.delta)) WHERE model = \(b.bind(model.name))
            ORDER BY changed_at DESC, seq DESC LIMIT \(b.bind(limit))
            """
        return try connection.run("read the latest deltas of \(model.name)", sql, b).rows.map {
            try table.item(fromJSON: try $0.column(0, String.self) ?? "")
        }
    }

    func conflicts(model: String?, limit: Int) throws -> [ConflictRecord] {
        guard limit >= 1 else { return [] }
        var b = SQLBuilder()
        var sql = """
            SELECT model, key, mutation, incoming_version, stored_version, handler, outcome, result_version, at
            FROM \(catalog.qualified(PostgresSyncLog.conflicts))
            """
        if let model { sql += " WHERE model = \(b.bind(model))" }
        sql += " ORDER BY seq DESC LIMIT \(b.bind(limit))"
        return try connection.run("read the conflict log", sql, b).rows.map { row in
            let model = try row.column(0, String.self) ?? ""
            guard let keyText = try row.column(1, String.self), case .object(let key)? = try? JSONValue(parsing: keyText) else {
                throw AppSyncError(.internalFailure, "A conflict record of \(model) does not hold a JSON key. The table was changed outside DeltaSync.")
            }
            return ConflictRecord(
                model: model, key: key, mutation: try row.column(2, String.self) ?? "",
                incomingVersion: try row.column(3, Int.self) ?? 0, storedVersion: try row.column(4, Int.self) ?? 0,
                handler: try row.column(5, String.self) ?? "", outcome: try row.column(6, String.self) ?? "",
                resultVersion: try row.column(7, Int.self), at: try row.column(8, Int.self) ?? 0)
        }
    }
}
