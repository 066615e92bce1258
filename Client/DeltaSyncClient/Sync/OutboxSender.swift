import DeltaSyncCore
import DeltaSyncSQLite
import GRDB

extension DataStore {
    /// Sends the outbox, oldest first, one mutation at a time, until it is empty.
    ///
    /// A network failure stops it with the mutation still pending. A mutation the backend
    /// refuses is removed and reported: `ConditionalCheckFailedException` as Amplify drops it,
    /// `ConflictUnhandled` by applying the server's version (the default conflict handler).
    func sendOutbox(client: GraphQLClient) async throws(DataStoreError) {
        try await write { db in
            try Outbox.clearInProcess(db)
            return []
        }
        while let mutation = try await takeNext() {
            guard let model = database.schema.model(named: mutation.modelName),
                let (field, document) = SyncDocuments(model: model, schema: database.schema).mutation(mutation.mutationType)
            else {
                try await finish(mutation, model: mutation.modelName, result: nil)
                report(.rejected(model: mutation.modelName, errorType: "OperationDisabled", message: "the schema has no \(mutation.mutationType.rawValue) mutation"))
                continue
            }
            var variables: Item = ["input": .object(Self.input(mutation, model: model))]
            if let condition = mutation.condition { variables["condition"] = condition }
            let response = try await client.execute(document, variables: variables)
            if case .object(let result) = response.data[field] {
                try await finish(mutation, model: model.name, result: result)
                continue
            }
            let error = response.errors.first ?? .null
            let errorType = error["errorType"].stringValue ?? "Unknown"
            let remote = errorType == "ConflictUnhandled" ? error["data"].objectValue : nil
            try await finish(mutation, model: model.name, result: remote)
            report(.rejected(model: model.name, errorType: errorType, message: error["message"].stringValue ?? "no message"))
        }
    }

    /// The oldest pending mutation, marked as being sent.
    private func takeNext() async throws(DataStoreError) -> OutboxMutation? {
        let next = Locked<OutboxMutation?>(nil)
        try await write { db in
            let mutation = try Outbox.first(db)
            if let mutation { try Outbox.markInProcess(db, sequence: mutation.sequence) }
            next.withLock { $0 = mutation }
            return []
        }
        return next.withLock { $0 }
    }

    /// The mutation's `input`: the key and `_version` for a delete; otherwise the stored
    /// fields, without unset server-managed timestamps (an explicit null would clear them).
    private static func input(_ mutation: OutboxMutation, model: ModelSchema) -> Item {
        var input = mutation.item
        if mutation.mutationType != .delete {
            for name in [model.timestamps.createdAt, model.timestamps.updatedAt].compactMap({ $0 }) where input[name]?.isNull ?? false {
                input[name] = nil
            }
        }
        return input
    }

    /// Removes a sent mutation and, in the same transaction, stores the server's version of the
    /// item (when newer) and hands its `_version` to the item's next pending mutation.
    private func finish(_ mutation: OutboxMutation, model: String, result: Item?) async throws(DataStoreError) {
        let table = try database.table(model)
        try await write { db in
            try Outbox.remove(db, sequence: mutation.sequence)
            guard let result else { return [] }
            let stored = try table.metadata(key: result, using: db.cachedStatement(sql: table.selectMetadataByKeySQL))
            guard (result["_version"]?.intValue ?? 0) > (stored?.version ?? 0) || stored?.lastChangedAt == nil else { return [] }
            try table.put(result, in: db)
            if let version = result["_version"] { try Outbox.setVersion(db, model: model, modelID: mutation.modelID, version: version) }
            let deleted = result["_deleted"]?.boolValue == true
            return [StoredChange(modelName: model, mutationType: deleted ? .delete : (stored == nil ? .create : .update), item: result, isRemote: true)]
        }
    }
}
