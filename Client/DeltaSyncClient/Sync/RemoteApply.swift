import DeltaSyncCore
import DeltaSyncLocalStore

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

    /// Adds what another batch did.
    package static func += (total: inout RemoteApplyCounts, batch: RemoteApplyCounts) {
        total.added += batch.added
        total.updated += batch.updated
        total.deleted += batch.deleted
        total.skipped += batch.skipped
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

    /// Whether anyone wants the changes applying makes: then a page's records are needed as
    /// items, and are better parsed where the page is fetched than on the writer.
    var observed: Bool { store.hasObservers || eventsObserved() }

    /// Applies `records` of `modelName` and counts what they did.
    func apply(_ modelName: String, records: [Item]) async throws(DataStoreError) -> RemoteApplyCounts {
        try await apply(modelName, page: .items(records))
    }

    /// Applies a sync page's records. Text is stored as it stands (``RemoteApplyText``) when
    /// nothing needs the records as items: nobody observes the changes and no local mutation
    /// of the model is pending.
    func apply(_ modelName: String, page records: SyncPageRecords) async throws(DataStoreError) -> RemoteApplyCounts {
        let store = store
        let table = try store.table(modelName)
        guard let model = store.schema.model(named: modelName) else { throw .unknownModel(modelName) }
        let result = Locked(RemoteApplyCounts())
        // Building change events for a 100,000-record sync costs; nobody may be listening.
        let observed = observed
        try await store.write { db in
            let pending = try Outbox.pendingModelIDs(db, model: modelName)
            if !observed, pending.isEmpty, case .text(let text) = records {
                let counts = try RemoteApplyText(table: table).apply(text, in: db)
                result.withLock { $0 = counts }
                return []
            }
            var batch = RemoteApplyBatch(records: try records.items(), table: table)
            let candidates = batch.candidates(pending: pending) { record in
                let modelID = ModelIdentifier(of: record, in: model).description
                guard pending.contains(modelID) else { return false }
                store.holdBack(record, model: modelName, modelID: modelID)
                return true
            }
            let known = try batch.insertUnseen(candidates, in: db)
            try batch.updateKnown(known, in: db)
            let total = batch.counts
            result.withLock { $0 = total }
            guard observed else { return [] }
            return batch.changes(modelName: modelName)
        }
        return result.withLock { $0 }
    }

    /// Records inserted by one statement: with 64, sync pages applied about a fifth faster
    /// than with one; 128 or 256 gained nothing more.
    static let insertBatch = 64
}
