import DeltaSyncCore
import DeltaSyncLocalStore
import DeltaSyncSQLite
import GRDB

/// One batch of ``RemoteApply`` inside its write transaction, in the order it runs: keep the
/// newest record of each item, hold back those with a pending local mutation, insert the items
/// the device has never seen, then replace the others where the record is newer.
struct RemoteApplyBatch {
    let records: [Item]
    let table: ModelTable
    /// Each record's key in the table, by position.
    let keys: [JSONValue]
    private(set) var counts = RemoteApplyCounts()
    /// What each record did to the store, by position: `nil` when it changed nothing visible.
    private var applied: [MutationType?]

    init(records: [Item], table: ModelTable) {
        self.records = records
        self.table = table
        keys = records.map(table.key(of:))
        applied = [MutationType?](repeating: nil, count: records.count)
    }

    /// The positions of the records to store: the newest of each item (as Amplify, only the
    /// newest record of an item counts: a delta page lists every change of an item, oldest
    /// first), except those `heldBack` keeps for after a pending local mutation. Both kinds of
    /// record left out count as skipped.
    ///
    /// - Parameter heldBack: called only when `pending` is not empty.
    mutating func candidates(pending: Set<String>, heldBack: (Item) -> Bool) -> [Int] {
        let superseded = supersededPositions()
        var candidates: [Int] = []
        candidates.reserveCapacity(records.count)
        for (position, record) in records.enumerated() {
            guard !superseded[position] else {
                counts.skipped += 1
                continue
            }
            if !pending.isEmpty, heldBack(record) {
                counts.skipped += 1
                continue
            }
            candidates.append(position)
        }
        return candidates
    }

    /// For each position, whether a record of the same item with a higher `_version` (or as
    /// high, later in the batch) is in the batch.
    private func supersededPositions() -> [Bool] {
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
        return superseded
    }

    /// Inserts the candidates whose item the store does not hold, ``RemoteApply/insertBatch``
    /// rows per statement, and returns the positions of the others. Items the device has never
    /// seen are inserted without looking anything up, which is every item of a first sync.
    mutating func insertUnseen(_ candidates: [Int], in db: Database) throws -> [Int] {
        let batchSize = RemoteApply.insertBatch
        var known: [Int] = []
        let fullBatch = try db.cachedStatement(sql: table.insertIfAbsentSQL(rows: batchSize))
        for start in stride(from: 0, to: candidates.count, by: batchSize) {
            let batch = candidates[start..<min(start + batchSize, candidates.count)]
            let insert = batch.count == batchSize ? fullBatch : try db.cachedStatement(sql: table.insertIfAbsentSQL(rows: batch.count))
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
        return known
    }

    /// Replaces the stored items of `known` positions whose record is newer than the synced
    /// version the store holds.
    mutating func updateKnown(_ known: [Int], in db: Database) throws {
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
    }

    /// The changes to announce, in the batch's order.
    func changes(modelName: String) -> [StoredChange] {
        records.indices.compactMap { position in
            applied[position].map { StoredChange(modelName: modelName, mutationType: $0, item: records[position], isRemote: true) }
        }
    }
}
