import DeltaSyncCore
import DeltaSyncSQLite
import GRDB

/// ``RemoteApply`` of a sync page from the JSON text the backend sent: the records are bound
/// from the text (``ScannedRecords``), without building an ``Item`` for each. What it stores is
/// what the ``Item`` path (``RemoteApplyBatch``) stores; the tests compare the two.
///
/// Only for a page nobody observes and with no local mutation of the model pending: no change
/// event is built and nothing is held back; and whose items have distinct keys
/// (``SyncPageScan``), so none supersedes another. Items the store already holds (a delta sync)
/// are parsed and go through ``RemoteApplyBatch/updateKnown(_:in:)``.
struct RemoteApplyText {
    let table: ModelTable

    /// Stores `page` in `db`.
    func apply(_ page: SyncPageText, in db: Database) throws -> RemoteApplyCounts {
        try page.withBytes { bytes in
            var counts = RemoteApplyCounts()
            var known: [Item] = []
            let fullBatch = try db.cachedStatement(sql: table.insertIfAbsentSQL(rows: RemoteApply.insertBatch))
            var start = 0
            for batch in page.batches {
                let insert = batch.count == RemoteApply.insertBatch ? fullBatch : try db.cachedStatement(sql: table.insertIfAbsentSQL(rows: batch.count))
                let inserted = try table.insertIfAbsent(batch, text: bytes, using: insert, in: db)
                for (offset, new) in inserted.enumerated() {
                    if !new {
                        if let item = try page.items[start + offset].parse(in: bytes).objectValue { known.append(item) }
                    } else if !batch.isDeleted(offset) {
                        // A tombstone of an item never seen is stored, but nothing was live to delete.
                        counts.added += 1
                    }
                }
                start += batch.count
            }
            guard !known.isEmpty else { return counts }
            var batch = RemoteApplyBatch(records: known, table: table)
            try batch.updateKnown(Array(known.indices), in: db)
            counts += batch.counts
            return counts
        }
    }
}
