import DeltaSyncCore
import DeltaSyncModelSchema
import DeltaSyncSQLite
import GRDB

extension LocalStore {
    /// Creates or updates `item` and records the mutation in the outbox, in one transaction.
    ///
    /// - Parameter condition: checked against the stored item first; a condition on an item
    ///   that does not exist fails.
    package func save(_ item: Item, of model: ModelSchema, where condition: QueryPredicate?) async throws(DataStoreError) {
        let modelName = model.name
        let table = try table(modelName)
        let modelID = ModelIdentifier(of: item, in: model).description
        try await write { db in
            // Without a condition only the sync metadata matters; decoding the item would cost
            // more than the write.
            let metadata = try table.metadata(key: item, using: db.cachedStatement(sql: table.selectMetadataByKeySQL))
            let exists = metadata.map { !$0.deleted } ?? false
            if let condition, condition != .all {
                guard exists, let live = try table.fetch(key: item, in: db) else {
                    throw DataStoreError.conditionFailed(model: modelName, reason: "the model does not exist, so no condition can apply")
                }
                guard condition.matches(live) else {
                    throw DataStoreError.conditionFailed(model: modelName, reason: "the stored model does not match \(condition.filterInput.jsonText)")
                }
            }
            var row = item
            var sent = item
            // The sync metadata stays with the row: it is the version the next mutation sends.
            if let metadata {
                row["_version"] = metadata.version.map(JSONValue.int)
                row["_lastChangedAt"] = metadata.lastChangedAt.map(JSONValue.int)
                if let version = metadata.syncedVersion { sent["_version"] = .int(version) }
            }
            try table.put(row, in: db)
            let mutationType: MutationType = exists ? .update : .create
            try Outbox.enqueue(db, model: modelName, modelID: modelID, mutationType: mutationType, item: sent, condition: condition)
            return [StoredChange(modelName: modelName, mutationType: mutationType, item: item, isRemote: false)]
        }
    }

    /// Deletes the item with this key (nothing when there is none) and, first, its `@hasMany`
    /// children, recursively.
    ///
    /// - Parameter condition: checked locally against the stored item (not sent, as Amplify).
    package func delete(key: Item, of model: ModelSchema, where condition: QueryPredicate?) async throws(DataStoreError) {
        let table = try table(model.name)
        try await write { db in
            guard let stored = try table.fetch(key: key, in: db), stored["_deleted"]?.boolValue != true else { return [] }
            if let condition, !condition.matches(stored) {
                throw DataStoreError.conditionFailed(model: model.name, reason: "the stored model does not match \(condition.filterInput.jsonText)")
            }
            var changes: [StoredChange] = []
            try self.cascadeDelete(stored, of: model, condition: nil, db, into: &changes)
            return changes
        }
    }

    /// Deletes every item matching `predicate` (and their children); each mutation carries the
    /// predicate as its condition, as Amplify sends a batch delete.
    package func delete(_ model: ModelSchema, where predicate: QueryPredicate) async throws(DataStoreError) {
        let table = try table(model.name)
        try await write { db in
            var changes: [StoredChange] = []
            for item in try self.select(table, where: predicate, sort: [], paginate: nil, db) {
                try self.cascadeDelete(item, of: model, condition: predicate, db, into: &changes)
            }
            return changes
        }
    }

    /// Each deleted item gets its own outbox entry, children before parents.
    private func cascadeDelete(
        _ item: Item, of model: ModelSchema, condition: QueryPredicate?, _ db: Database, into changes: inout [StoredChange]
    ) throws {
        for field in model.relationFields {
            guard let relation = field.relation, relation.isConnection,
                let childModel = schema.model(named: relation.relatedModel)
            else { continue }
            let childTable = try table(childModel.name)
            let match = zip(relation.relatedFields, relation.localFields).reduce(QueryPredicate.all) {
                $0 && .field($1.0, .eq(item[$1.1] ?? .null))
            }
            for child in try select(childTable, where: match, sort: [], paginate: nil, db) {
                try cascadeDelete(child, of: childModel, condition: nil, db, into: &changes)
            }
        }
        let table = try table(model.name)
        var tombstone = item
        tombstone["_deleted"] = .bool(true)
        try table.put(tombstone, in: db)
        let identifier = ModelIdentifier(of: item, in: model)
        var sent = identifier.item
        if let version = item["_version"], item["_lastChangedAt"] != nil { sent["_version"] = version }
        let modelID = identifier.description
        let cancelled = try Outbox.enqueue(db, model: model.name, modelID: modelID, mutationType: .delete, item: sent, condition: condition)
        changes.append(StoredChange(modelName: model.name, mutationType: .delete, item: item, isRemote: false))
        // The item never reached the backend. If the backend meanwhile has an item with this key
        // (made elsewhere), the change held back for the pending create is what the device
        // should hold now.
        if cancelled, let held = takeHeldBack(model: model.name, modelID: modelID) {
            try table.put(held, in: db)
            if held["_deleted"]?.boolValue != true {
                changes.append(StoredChange(modelName: model.name, mutationType: .create, item: held, isRemote: true))
            }
        }
    }
}
