import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncStorage
import PostgresNIO

// A create as one call. The general write path (`write`) is a transaction of seven round trips:
// BEGIN, the store lock, the item lock, the read, the floor, the upsert with its delta row,
// COMMIT. A create reads nothing of the item: the primary key's unique index decides whether the
// key is free. So it is one prepared call of `deltasync_insert` in a transaction of its own, with
// the same guarantees (docs/architecture.md, "Why `startedAt` is safe on PostgreSQL").
extension PostgresItemStore {
    /// How often ``insert(_:key:now:_:)`` stamps again when another process's sync moved the
    /// floor above its guess, before it falls back to a write transaction.
    static let insertAttempts = 3

    /// One call of `deltasync_insert` (``PostgresFunctions``). The change time is this process's guess, above
    /// its own latest stamp (which is above every sync stamp this process made). A sync of
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
            let statement = PostgresInsertStatement(
                lockKey: writeLockKey, model: model.name, key: keyText, item: JSONValue.object(stored).jsonText, changedAt: stamp,
                deleted: stored["_deleted"]?.boolValue, ttl: stored["_ttl"]?.intValue,
                deltaKey: JSONValue.object(try model.keyValues(of: item)).jsonText, version: stored["_version"]?.intValue ?? 1,
                // The delta row holds the item as given, like `appendDelta`; usually it is `stored`.
                deltaItem: item == stored ? nil : JSONValue.object(item).jsonText)
            let (floor, written) = try await withConnection { [logger] connection in
                do {
                    for try await (floor, written) in try await connection.connection.execute(statement, logger: logger) {
                        if let floor, let written { return (floor, written) }
                    }
                } catch {
                    throw PostgresSQL.wrap(error, "create an item of \(model.name)")
                }
                throw AppSyncError(.internalFailure, "The change clock row is missing from \(PostgresSyncLog.clock). Reconnect the store to recreate it.")
            }
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
}
