import DeltaSyncCore
import DeltaSyncLocalStore
import DeltaSyncSQLite
import GRDB

/// How a batch of synced records changed the local store.
package struct RemoteApplyCounts: Sendable, Equatable {
    package var added = 0
    package var updated = 0
    package var deleted = 0
    /// Not stored: older than (or as old as) the local version or than a later record of the
    /// same item in the batch, or the item has a pending local mutation.
    package var skipped = 0

    package init(added: Int = 0, updated: Int = 0, deleted: Int = 0, skipped: Int = 0) {
        self.added = added
        self.updated = updated
        self.deleted = deleted
        self.skipped = skipped
    }
}

/// Stores records received from the backend (a sync page or subscription events) in the local
/// store, one transaction per batch: a record is stored only when its `_version` is newer than
/// the local one and no local mutation of the item is pending (it is held back until that
/// mutation is done); a tombstone (`_deleted`) deletes.
struct RemoteApply: Sendable {
    let store: LocalStore
    /// Whether anyone besides the store's observers wants the changes (``SyncEvents``).
    let eventsObserved: @Sendable () -> Bool

    /// Applies `records` of `modelName` and counts what they did.
    func apply(_ modelName: String, records: [Item]) async throws(DataStoreError) -> RemoteApplyCounts {
        let store = store
        let table = try store.table(modelName)
        guard let model = store.schema.model(named: modelName) else { throw .unknownModel(modelName) }
        let result = Locked(RemoteApplyCounts())
        // Building change events for a 100,000-record sync costs; nobody may be listening.
        let observed = store.hasObservers || eventsObserved()
        try await store.write { db in
            let pending = try Outbox.pendingModelIDs(db, model: modelName)
            var counts = RemoteApplyCounts()
            // As Amplify, only the newest record of an item counts: a delta page lists every
            // change of an item, oldest first.
            let keys = records.map(table.key(of:))
            var superseded = [Bool](repeating: false, count: records.count)
            var newest: [JSONValue: Int] = [:]
            newest.reserveCapacity(records.count)
            for (position, key) in keys.enumerated() {
                if let other = newest[key] {
                    if (records[other]["_version"]?.intValue ?? 0) > (records[position]["_version"]?.intValue ?? 0) {
                        superseded[position] = true
                        continue
                    }
                    superseded[other] = true
                }
                newest[key] = position
            }
            var candidates: [Int] = []
            candidates.reserveCapacity(records.count)
            for (position, record) in records.enumerated() {
                guard !superseded[position] else {
                    counts.skipped += 1
                    continue
                }
                if !pending.isEmpty {
                    let modelID = ModelIdentifier(of: record, in: model).description
                    if pending.contains(modelID) {
                        store.holdBack(record, model: modelName, modelID: modelID)
                        counts.skipped += 1
                        continue
                    }
                }
                candidates.append(position)
            }
            // Items the device has never seen are inserted without looking anything up, which
            // is every item of a first sync; only the others need their stored version.
            var applied = [MutationType?](repeating: nil, count: records.count)
            var known: [Int] = []
            let fullBatch = try db.cachedStatement(sql: table.insertIfAbsentSQL(rows: Self.insertBatch))
            for start in stride(from: 0, to: candidates.count, by: Self.insertBatch) {
                let batch = candidates[start..<min(start + Self.insertBatch, candidates.count)]
                let insert = batch.count == Self.insertBatch ? fullBatch : try db.cachedStatement(sql: table.insertIfAbsentSQL(rows: batch.count))
                let inserted = try table.insertIfAbsent(batch.map { records[$0] }, using: insert, in: db)
                for (position, new) in zip(batch, inserted) {
                    guard new else {
                        known.append(position)
                        continue
                    }
                    // A tombstone of an item never seen is stored, but nothing was live to delete.
                    if records[position]["_deleted"]?.boolValue != true {
                        counts.added += 1
                        applied[position] = .create
                    }
                }
            }
            let stored = try table.metadata(ofKeys: known.map { records[$0] }, in: db)
            let replace = try db.cachedStatement(sql: table.insertSQL)
            for position in known {
                let record = records[position]
                let local = stored[keys[position]]
                if let localVersion = local?.syncedVersion, let version = record["_version"]?.intValue, version <= localVersion {
                    counts.skipped += 1
                    continue
                }
                let wasLive = local.map { !$0.deleted } ?? false
                try table.put(record, using: replace)
                if record["_deleted"]?.boolValue == true {
                    guard wasLive else { continue }
                    counts.deleted += 1
                    applied[position] = .delete
                } else if wasLive {
                    counts.updated += 1
                    applied[position] = .update
                } else {
                    counts.added += 1
                    applied[position] = .create
                }
            }
            let total = counts
            result.withLock { $0 = total }
            guard observed else { return [] }
            return records.indices.compactMap { position in
                applied[position].map { StoredChange(modelName: modelName, mutationType: $0, item: records[position], isRemote: true) }
            }
        }
        return result.withLock { $0 }
    }

    /// Records inserted by one statement: with 64, sync pages applied about a fifth faster
    /// than with one; 128 or 256 gained nothing more.
    static let insertBatch = 64
}
