import DeltaSyncCore
import Foundation
import GRDB

/// A local mutation waiting to be sent to the backend.
public struct OutboxMutation: Sendable, Equatable {
    /// FIFO position.
    public let sequence: Int64
    /// The model's GraphQL type name.
    public let modelName: String
    /// The model's key, as ``ModelIdentifier/description`` writes it.
    public let modelID: String
    /// What the mutation sends: create, update or delete.
    public let mutationType: MutationType
    /// The model's stored fields, with `_version` when the item was synced before.
    public let item: Item
    /// The condition input sent with the mutation, `nil` for none.
    public let condition: JSONValue?
}

/// The persisted outbox table: pending mutations, oldest first. Written in the same
/// transaction as the model change it records.
///
/// The table is created by ``ClientTables``. A plain rowid `sequence` (no AUTOINCREMENT, which
/// writes `sqlite_sequence` on every save) numbers a new mutation after every pending one, which
/// is all FIFO needs. A number can come back only after its mutation is removed, and only the
/// sender removes the one it sends.
package enum Outbox {
    /// Records a local change. It is merged into the item's oldest pending mutation that is not
    /// being sent when Amplify's rules allow (neither has a condition): create then update stays
    /// a create with the new fields, update then update or delete then delete keeps the newest,
    /// update then delete becomes the delete, and create then delete cancels both, so an item
    /// that never reached the server is never sent.
    ///
    /// - Returns: `true` when the change cancelled the item's pending create: nothing of the
    ///   item is pending any more.
    @discardableResult
    package static func enqueue(
        _ db: Database, model: String, modelID: String, mutationType: MutationType, item: Item, condition: QueryPredicate?
    ) throws -> Bool {
        let conditionText = condition.flatMap { $0 == .all ? nil : $0.filterInput.jsonText }
        let itemText = JSONValue.object(item).jsonText
        // Nothing merges into a create (the item had no row, or only a tombstone).
        if conditionText == nil, mutationType != .create,
            let pending = try Row.fetchOne(
                db.cachedStatement(sql: """
                    SELECT sequence, mutationType FROM deltasync_outbox
                    WHERE model = ? AND modelID = ? AND inProcess = 0 AND condition IS NULL ORDER BY sequence LIMIT 1
                    """),
                arguments: [model, modelID]),
            let pendingType = MutationType(rawValue: pending["mutationType"])
        {
            let sequence: Int64 = pending["sequence"]
            switch (pendingType, mutationType) {
            case (.create, .update), (.update, .update), (.delete, .delete), (.update, .delete):
                let merged = pendingType == .create ? MutationType.create : mutationType
                try db.execute(
                    sql: "UPDATE deltasync_outbox SET mutationType = ?, item = ? WHERE sequence = ?",
                    arguments: [merged.rawValue, itemText, sequence])
                return false
            case (.create, .delete):
                try remove(db, sequence: sequence)
                return try !hasPending(db, model: model, modelID: modelID)
            default:
                // Amplify refuses these (a create after anything, an update after a delete);
                // sent as they are, the server answers them.
                break
            }
        }
        let statement = try db.cachedStatement(sql: """
            INSERT INTO deltasync_outbox (model, modelID, mutationType, item, condition, createdAt) VALUES (?, ?, ?, ?, ?, ?)
            """)
        try statement.execute(arguments: [
            model, modelID, mutationType.rawValue, itemText, conditionText, Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)),
        ])
        return false
    }

    /// Marks the mutation being sent, so no later change merges into it.
    package static func markInProcess(_ db: Database, sequence: Int64) throws {
        try db.execute(sql: "UPDATE deltasync_outbox SET inProcess = 1 WHERE sequence = ?", arguments: [sequence])
    }

    /// After a restart nothing is being sent: the mutation that was is sent again (a duplicate
    /// is refused by its version or condition on the server, as with Amplify).
    package static func clearInProcess(_ db: Database) throws {
        try db.execute(sql: "UPDATE deltasync_outbox SET inProcess = 0 WHERE inProcess <> 0")
    }

    /// The pending mutations, oldest first, at most `limit`. A row that cannot be read
    /// (``OutboxRecord/mutation()``) is removed in this transaction and returned as its error,
    /// for the caller to report: it is never sent.
    package static func takeReadable(_ db: Database, limit: Int? = nil) throws -> (mutations: [OutboxMutation], unreadable: [DataStoreError]) {
        var mutations: [OutboxMutation] = []
        var unreadable: [DataStoreError] = []
        var after = Int64.min
        while true {
            let wanted = limit.map { $0 - mutations.count } ?? -1
            guard wanted != 0 else { break }
            let batch = try OutboxRecord.filter(Column("sequence") > after).order(Column("sequence")).limit(wanted).fetchAll(db)
            for record in batch {
                after = record.sequence
                do {
                    mutations.append(try record.mutation())
                } catch {
                    try remove(db, sequence: record.sequence)
                    unreadable.append(error)
                }
            }
            if batch.isEmpty || limit == nil { break }
        }
        return (mutations, unreadable)
    }

    /// The pending mutations, oldest first, each or the error of its unreadable row, without
    /// changing anything.
    package static func entries(_ db: Database, limit: Int? = nil) throws -> [Result<OutboxMutation, DataStoreError>] {
        try OutboxRecord.order(Column("sequence")).limit(limit ?? -1).fetchAll(db).map { record in
            Result { () throws(DataStoreError) in try record.mutation() }
        }
    }

    package static func remove(_ db: Database, sequence: Int64) throws {
        try db.execute(sql: "DELETE FROM deltasync_outbox WHERE sequence = ?", arguments: [sequence])
    }

    package static func isEmpty(_ db: Database) throws -> Bool {
        try !(Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM deltasync_outbox)") ?? false)
    }

    /// Whether a mutation of the item is waiting.
    /// The keys of the model's items with a pending mutation.
    package static func pendingModelIDs(_ db: Database, model: String) throws -> Set<String> {
        try Set(String.fetchAll(db, sql: "SELECT modelID FROM \(ClientTables.outbox) WHERE model = ?", arguments: [model]))
    }

    package static func hasPending(_ db: Database, model: String, modelID: String) throws -> Bool {
        try Bool.fetchOne(
            db, sql: "SELECT EXISTS (SELECT 1 FROM deltasync_outbox WHERE model = ? AND modelID = ?)", arguments: [model, modelID]) ?? false
    }

    /// Gives the item's pending mutations the `_version` the server just returned, so the next
    /// one is not refused as stale.
    package static func setVersion(_ db: Database, model: String, modelID: String, version: JSONValue) throws {
        let rows = try Row.fetchAll(
            db, sql: "SELECT sequence, item FROM deltasync_outbox WHERE model = ? AND modelID = ?", arguments: [model, modelID])
        for row in rows {
            guard var item = (try? JSONValue(parsing: row["item"]))?.objectValue else { continue }
            item["_version"] = version
            try db.execute(
                sql: "UPDATE deltasync_outbox SET item = ? WHERE sequence = ?", arguments: [JSONValue.object(item).jsonText, row["sequence"] as Int64])
        }
    }
}
