import DeltaSyncCore
import DeltaSyncSQLite
import GRDB

/// How a batch of synced records changed the local store.
package struct RemoteApplyCounts: Sendable, Equatable {
    package var added = 0
    package var updated = 0
    package var deleted = 0
    /// Older than (or as old as) the local version, or the item has a pending local mutation.
    package var skipped = 0
}

extension DataStore {
    /// Applies records received from the backend (a sync page or subscription events) in one
    /// transaction: a record is stored only when its `_version` is newer than the local one
    /// and no local mutation of the item is pending; a tombstone (`_deleted`) deletes.
    package func applyRemote(_ modelName: String, records: [Item]) async throws(DataStoreError) -> RemoteApplyCounts {
        let table = try database.table(modelName)
        let model = database.schema.model(named: modelName)!
        let result = Locked(RemoteApplyCounts())
        // Building change events for a 100,000-record sync costs; nobody may be listening.
        let observed = feed.hasObservers
        try await write { db in
            let pending = try Set(String.fetchAll(db, sql: "SELECT modelID FROM deltasync_outbox WHERE model = ?", arguments: [modelName]))
            var counts = RemoteApplyCounts()
            var changes: [StoredChange] = []
            let metadataStatement = try db.makeStatement(sql: table.selectMetadataByKeySQL)
            let insertStatement = try db.makeStatement(sql: table.insertSQL)
            for record in records {
                if !pending.isEmpty {
                    let key = model.primaryKey.fields.map { ($0, record[$0] ?? .null) }
                    if pending.contains(ModelIdentifier(key).description) {
                        counts.skipped += 1
                        continue
                    }
                }
                let stored = try table.metadata(key: record, using: metadataStatement)
                if let local = stored?.version, let remote = record["_version"]?.intValue, remote <= local {
                    counts.skipped += 1
                    continue
                }
                let deleted = record["_deleted"]?.boolValue == true
                let wasLive = stored.map { !$0.deleted } ?? false
                try table.put(record, using: insertStatement)
                let mutationType: MutationType
                if deleted {
                    guard wasLive else { continue }
                    counts.deleted += 1
                    mutationType = .delete
                } else if wasLive {
                    counts.updated += 1
                    mutationType = .update
                } else {
                    counts.added += 1
                    mutationType = .create
                }
                if observed {
                    changes.append(StoredChange(modelName: modelName, mutationType: mutationType, item: record, isRemote: true))
                }
            }
            let total = counts
            result.withLock { $0 = total }
            return changes
        }
        return result.withLock { $0 }
    }
}
