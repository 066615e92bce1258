import DeltaSyncCore
import Foundation

extension DataStore {
    /// Base or delta sync of one model: delta when it last synced within `syncInterval` with
    /// the same sync expression, full otherwise; pages until the server has no more or
    /// `syncMaxRecords` is reached. `nil` when the schema has no sync query for the model.
    func sync(_ model: ModelSchema, expression: QueryPredicate, client: GraphQLClient) async throws(DataStoreError) -> ModelSyncedEvent? {
        let documents = SyncDocuments(model: model, schema: database.schema)
        guard let query = documents.syncQuery, let field = model.operations.sync else { return nil }
        let expressionText = expression == .all ? nil : expression.filterInput.jsonText
        let now = Int((Date().timeIntervalSince1970 * 1000).rounded(.down))
        let interval = Int(configuration.syncInterval.components.seconds) * 1000
        var lastSync: Int?
        if let stored = try await syncMetadata(for: model.name), stored.syncExpression == expressionText,
            let last = stored.lastSync, last <= now, now - last < interval
        {
            lastSync = last
        }

        var received = 0
        var nextToken: JSONValue = .null
        var startedAt: Int?
        var total = RemoteApplyCounts()
        repeat {
            let variables: Item = [
                "filter": expression.filterInput, "limit": .int(min(configuration.syncPageSize, configuration.syncMaxRecords - received)),
                "nextToken": nextToken, "lastSync": lastSync.map(JSONValue.int) ?? .null,
            ]
            let response = try await client.execute(query, variables: variables)
            let connection = response.data[field]
            guard case .array(let items) = connection["items"] else {
                let error = response.errors.first ?? .null
                throw DataStoreError.rejected(
                    model: model.name, errorType: error["errorType"].stringValue ?? "Unknown",
                    message: error["message"].stringValue ?? "the sync query returned no items")
            }
            // Selective sync: a record outside the expression is not stored; a tombstone is
            // applied whatever it holds, so a deleted item never lingers.
            let records = items.compactMap(\.objectValue).filter { $0["_deleted"]?.boolValue == true || expression.matches($0) }
            let counts = try await applyRemote(model.name, records: records)
            total.added += counts.added
            total.updated += counts.updated
            total.deleted += counts.deleted
            received += items.count
            startedAt = connection["startedAt"].intValue ?? startedAt
            nextToken = connection["nextToken"]
        } while !nextToken.isNull && received < configuration.syncMaxRecords

        if !nextToken.isNull {
            report(.syncMaxRecordsReached(model: model.name, limit: configuration.syncMaxRecords))
        } else {
            let synced = ModelSyncMetadata(modelName: model.name, lastSync: startedAt, syncExpression: expressionText)
            try await write { db in
                try synced.save(db)
                return []
            }
        }
        return ModelSyncedEvent(
            modelName: model.name, isFullSync: lastSync == nil, added: total.added, updated: total.updated, deleted: total.deleted)
    }
}
