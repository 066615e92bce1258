import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncStorage
import PostgresNIO

// A create as one call. The general write path (`write`) is a transaction of four round trips:
// BEGIN, the locks with the read of the item and the floor, the upsert with its delta row,
// COMMIT. A create reads nothing of the item: the primary key's unique index decides whether the
// key is free. So it is one prepared call of `deltasync_insert_rows` in a transaction of its own,
// with the same guarantees (docs/architecture.md, "Why `startedAt` is safe on PostgreSQL"), and
// creates that arrive together share that call (`PostgresInsertGroup`).
extension PostgresItemStore {
    /// How often ``insert(_:key:now:_:)`` stamps again when another process's sync moved the
    /// floor above its guess, before it falls back to a write transaction.
    static let insertAttempts = 3

    /// How many calls of `deltasync_insert_rows` run at once; more creates than that wait for
    /// the next call and share it. Two keep one call filling while the other runs, and a lone
    /// create beside one in flight does not wait; more calls mean smaller groups, which cost the
    /// database more per create (docs/benchmarks.md, "Creates in groups").
    static let insertCalls = 2

    /// A row of a call of `deltasync_insert_rows` (``PostgresFunctions``), which creates arriving
    /// at the same time share (``PostgresInsertGroup``). The change time is this process's guess,
    /// above its own latest stamp (which is above every sync stamp this process made). A sync of
    /// another process can have moved the floor past it: then nothing is written, and the floor
    /// the call read says how far to go.
    ///
    /// - Throws: ``AppSyncError`` (`InternalFailure`) when `key` is not the key of the item
    ///   `build` returns.
    public func insert(_ model: ModelSchema, key: Item, now: Int, _ build: @Sendable (_ changedAt: Int) throws -> Item) async throws -> Item? {
        let table = try catalog.table(for: model)
        let keyText = try table.key(of: key)
        for _ in 0..<Self.insertAttempts {
            let stamp = max(now, processClock.withLockedValue { $0 } + 1)
            let item = try build(stamp)
            let stored = try table.normalized(item)
            guard try table.key(of: stored) == keyText else {
                throw AppSyncError(.internalFailure, "The item built for \(model.name) has another key than \(keyText). Build the item with the key passed to insert.")
            }
            let create = PostgresInsertStatement.Create(
                model: model.name, key: keyText, item: JSONValue.object(stored).jsonText, changedAt: stamp,
                deltaKey: JSONValue.object(try model.keyValues(of: item)).jsonText, version: stored["_version"]?.intValue ?? 1,
                // The delta row holds the item as given, like `appendDelta`; usually it is `stored`.
                deltaItem: item == stored ? nil : JSONValue.object(item).jsonText)
            let (floor, written) = try await insertGroup.submit(create) { creates in try await self.insertRows(creates) }
            if written {
                processClock.withLockedValue { $0 = max($0, stamp) }
                return item
            }
            // Below the floor nothing was tried; above it, the key is taken.
            guard floor >= stamp else { return nil }
            processClock.withLockedValue { $0 = max($0, floor) }
        }
        // Syncs kept moving the floor: a transaction reads it after taking the lock.
        return try await transaction(.write) { tx in
            let changedAt = try tx.stampChange(now: now)
            let item = try build(changedAt)
            guard try tx.putIfAbsent(model, item) else { return nil }
            try tx.appendDelta(model, item: item, changedAt: changedAt)
            return item
        }
    }

    /// One call of `deltasync_insert_rows` for `creates`: the floor it read and, per create,
    /// whether it was written.
    private func insertRows(_ creates: [PostgresInsertStatement.Create]) async throws -> [(floor: Int, written: Bool)] {
        // Rows in key order: two calls at once that carry the same keys then wait on each other's
        // key in one order, where in the order their creates arrived they could each hold a key
        // the other waits for (PostgreSQL's "deadlock detected").
        let order = creates.indices.sorted { (creates[$0].model, creates[$0].key) < (creates[$1].model, creates[$1].key) }
        let statement = PostgresInsertStatement(lockKey: writeLockKey, creates: order.map { creates[$0] })
        return try await withConnection { [logger] connection in
            do {
                for try await (floor, written) in try await connection.connection.execute(statement, logger: logger) {
                    // A count other than the rows' is reported by the group (GroupCallMismatch).
                    if let floor, let written {
                        guard written.count == order.count else { return written.map { (floor, $0) } }
                        var answers = [(floor: Int, written: Bool)](repeating: (floor, false), count: order.count)
                        for (position, index) in order.enumerated() { answers[index] = (floor, written[position]) }
                        return answers
                    }
                }
            } catch {
                throw PostgresSQL.wrap(error, "create \(creates.count == 1 ? "an item" : "\(creates.count) items") of \(Set(creates.map(\.model)).sorted().joined(separator: ", "))")
            }
            throw AppSyncError(.internalFailure, "The change clock row is missing from \(PostgresSyncLog.clock). Reconnect the store to recreate it.")
        }
    }
}
