import DeltaSyncCore
import DeltaSyncLocalStore
import DeltaSyncModelSchema
import DeltaSyncSQLite
import GRDB

/// Sends the outbox, oldest first, one mutation at a time, and stores what the backend answers.
///
/// A network failure stops it with the mutation still pending (it is sent again when sync
/// restarts). A mutation the backend refuses is removed and reported: `ConflictUnhandled` goes
/// to the conflict handler, `ConditionalCheckFailedException` is dropped as Amplify drops it,
/// and the device takes the backend's version of the item so it does not keep a change the
/// backend never accepted.
struct OutboxSender: Sendable {
    let store: LocalStore
    let transport: any GraphQLTransport
    let events: SyncEvents
    let conflictHandler: @Sendable (DataStoreConflict) async -> ConflictResolution
    /// Which credentials each mutation carries.
    let authorizations: AuthorizationPlan

    /// Sends until the outbox is empty.
    ///
    /// A mutation once sent is seen through even when the session ends meanwhile (its realtime
    /// connection dropped, the app stopped sync): the backend may well apply it, and a device
    /// that dropped the answer would send it again from the outbox, a duplicate that the
    /// backend takes for a conflict (under a Lambda handler, a second resolution). As Amplify's
    /// mutation processor, the answer is awaited and stored; the next mutation waits for the
    /// next session.
    func send() async throws(DataStoreError) {
        while let mutation = try await takeNext() {
            let sending = Task { () async -> DataStoreError? in
                do throws(DataStoreError) {
                    try await send(mutation)
                    return nil
                } catch {
                    return error
                }
            }
            if let failure = await sending.value { throw failure }
        }
    }

    private func send(_ mutation: OutboxMutation) async throws(DataStoreError) {
        guard let model = store.schema.model(named: mutation.modelName) else {
            try await finish(mutation, refusedWith: nil)
            store.report(.rejected(model: mutation.modelName, errorType: "UnknownModel", message: "the schema has no model \(mutation.modelName)"))
            return
        }
        let outcome = try await execute(mutation.mutationType, item: Self.input(mutation, model: model), condition: mutation.condition, of: model)
        switch outcome {
        case .accepted(let result):
            try await accept(mutation, result: result)
        case .refused(let errorType, let message, let remote):
            switch errorType {
            case "ConflictUnhandled":
                try await resolveConflict(mutation, remote: remote, model: model)
            case "ConditionalCheckFailedException":
                events.publish(.conditionalSaveFailed(MutationEvent(
                    modelName: model.name, modelID: mutation.modelID, mutationType: mutation.mutationType, item: mutation.item)))
                store.report(.rejected(model: model.name, errorType: errorType, message: message))
                try await finish(mutation, refusedWith: try await serverVersion(remote, of: mutation, model: model))
            default:
                store.report(.rejected(model: model.name, errorType: errorType, message: message))
                try await finish(mutation, refusedWith: try await serverVersion(remote, of: mutation, model: model))
            }
        }
    }

    private enum Outcome {
        case accepted(Item)
        /// The backend's error, and the item it holds when it sent one (`errors[].data`).
        case refused(errorType: String, message: String, remote: Item?)
    }

    /// Sends one create, update or delete.
    private func execute(
        _ type: MutationType, item: Item, condition: JSONValue?, of model: ModelSchema
    ) async throws(DataStoreError) -> Outcome {
        guard let (field, document) = SyncDocuments(model: model, schema: store.schema).mutation(type) else {
            return .refused(errorType: "OperationDisabled", message: "the schema has no \(type.rawValue) mutation for \(model.name)", remote: nil)
        }
        var variables: Item = ["input": .object(item)]
        if let condition { variables["condition"] = condition }
        let operation: ModelOperation = type == .create ? .create : type == .update ? .update : .delete
        let response = try await authorizations.run(model, operation) { authorization throws(DataStoreError) in
            try await transport.execute(document, variables: variables, authorization: authorization)
        }
        if case .object(let result) = response.data[field] { return .accepted(result) }
        let error = response.errors.first ?? .null
        return .refused(
            errorType: error["errorType"].stringValue ?? "Unknown", message: error["message"].stringValue ?? "no message",
            remote: error["data"].objectValue)
    }

    private func accept(_ mutation: OutboxMutation, result: Item) async throws(DataStoreError) {
        try await finish(mutation, result: result)
        events.publish(.outboxMutationProcessed(MutationEvent(
            modelName: mutation.modelName, modelID: mutation.modelID, mutationType: mutation.mutationType, item: result)))
    }

    /// `ConflictUnhandled`: the item changed on the backend since this device last synced it.
    /// As Amplify: a deleted remote wins; otherwise the conflict handler decides, and a retry
    /// is sent once, based on the backend's version.
    private func resolveConflict(
        _ mutation: OutboxMutation, remote: Item?, model: ModelSchema
    ) async throws(DataStoreError) {
        guard let remote, mutation.mutationType != .create, remote["_deleted"]?.boolValue != true,
            let type = store.modelTypes[model.name],
            let local = try await localModel(mutation, type: type, model: model),
            let remoteModel = try? type.init(item: remote)
        else {
            store.report(.rejected(model: model.name, errorType: "ConflictUnhandled", message: "the backend holds another version; it was kept"))
            try await finish(mutation, refusedWith: try await serverVersion(remote, of: mutation, model: model))
            return
        }
        let conflict = DataStoreConflict(modelName: model.name, mutationType: mutation.mutationType, local: local, remote: remoteModel)
        let retry: (type: MutationType, item: Item)
        switch await conflictHandler(conflict) {
        case .applyRemote:
            try await finish(mutation, refusedWith: remote)
            return
        case .retryLocal:
            retry = (mutation.mutationType, Self.input(mutation, model: model))
        case .retry(let replacement):
            retry = (.update, replacement.item)
        }
        var item = retry.item
        item["_version"] = remote["_version"]
        if retry.type == .update { item = Self.withoutUnsetTimestamps(item, model: model) }
        switch try await execute(retry.type, item: item, condition: mutation.condition, of: model) {
        case .accepted(let result):
            try await accept(mutation, result: result)
        case .refused(let errorType, let message, let newer):
            store.report(.rejected(model: model.name, errorType: errorType, message: "the conflict retry was refused: \(message)"))
            try await finish(mutation, refusedWith: newer ?? remote)
        }
    }

    /// The model as this device has it: what the mutation sends, or for a delete the stored
    /// tombstone, which keeps every field.
    private func localModel(_ mutation: OutboxMutation, type: any Model.Type, model: ModelSchema) async throws(DataStoreError) -> (any Model)? {
        var item = mutation.item
        if mutation.mutationType == .delete {
            let table = try store.table(model.name)
            guard let stored = try await store.read({ db in try table.fetch(key: mutation.item, in: db) }) else { return nil }
            item = stored
        }
        return try? type.init(item: item)
    }

    /// The backend's version of a refused mutation's item: the one its error carried, else
    /// fetched (`getX`), so the device converges on what the backend holds.
    private func serverVersion(
        _ remote: Item?, of mutation: OutboxMutation, model: ModelSchema
    ) async throws(DataStoreError) -> Item? {
        if let remote { return remote }
        guard let (field, document) = SyncDocuments(model: model, schema: store.schema).getQuery else { return nil }
        let key = ModelIdentifier(of: mutation.item, in: model).item
        let response = try await authorizations.run(model, .get) { authorization throws(DataStoreError) in
            try await transport.execute(document, variables: key, authorization: authorization)
        }
        return response.data[field].objectValue
    }

    /// The oldest pending mutation, marked as being sent. Unreadable rows before it are
    /// removed and reported, never sent.
    private func takeNext() async throws(DataStoreError) -> OutboxMutation? {
        let next = Locked<(mutation: OutboxMutation?, unreadable: [DataStoreError])>((nil, []))
        try await store.write { db in
            let (mutations, unreadable) = try Outbox.takeReadable(db, limit: 1)
            let mutation = mutations.first
            if let mutation { try Outbox.markInProcess(db, sequence: mutation.sequence) }
            if !unreadable.isEmpty { try events.publishOutboxStatus(after: db) }
            next.withLock { $0 = (mutation, unreadable) }
            return []
        }
        let (mutation, unreadable) = next.withLock { $0 }
        for error in unreadable {
            store.report(error)
            events.publish(.outboxMutationDropped(error))
        }
        return mutation
    }

    /// The mutation's `input`: the key and `_version` for a delete; otherwise the stored
    /// fields, without unset server-managed timestamps and without implicit owner fields, which
    /// the generated inputs do not have (the backend fills them from the caller's identity).
    private static func input(_ mutation: OutboxMutation, model: ModelSchema) -> Item {
        guard mutation.mutationType != .delete else { return mutation.item }
        var input = withoutUnsetTimestamps(mutation.item, model: model)
        for name in model.implicitOwnerFields { input[name] = nil }
        return input
    }

    /// An explicit null would clear the timestamps the backend sets.
    private static func withoutUnsetTimestamps(_ item: Item, model: ModelSchema) -> Item {
        var input = item
        for name in [model.timestamps.createdAt, model.timestamps.updatedAt].compactMap({ $0 }) where input[name]?.isNull ?? false {
            input[name] = nil
        }
        return input
    }

    /// ``finish(_:result:refused:)`` for a mutation the backend refused; `copy` is its
    /// version of the item, when known.
    private func finish(_ mutation: OutboxMutation, refusedWith copy: Item?) async throws(DataStoreError) {
        try await finish(mutation, result: copy, refused: true)
    }

    /// Removes a sent mutation and, in the same transaction, stores the backend's version of the
    /// item (when newer) and hands its `_version` to the item's next pending mutation.
    ///
    /// Changes of the item that arrived while the mutation was pending were held back (never
    /// applied over a pending change); the newest of them is applied now if it is newer than the
    /// backend's answer, so a change made elsewhere meanwhile is not lost.
    ///
    /// - Parameter refused: the backend did not take the change, so `result` is its copy of
    ///   the item as it was, which replaces the local change even at the same `_version`.
    private func finish(_ mutation: OutboxMutation, result: Item?, refused: Bool = false) async throws(DataStoreError) {
        let table = try store.table(mutation.modelName)
        let model = mutation.modelName
        try await store.write { db in
            try Outbox.remove(db, sequence: mutation.sequence)
            try events.publishOutboxStatus(after: db)
            let pending = try Outbox.hasPending(db, model: model, modelID: mutation.modelID)
            var newest = result
            if !pending, let held = store.takeHeldBack(model: model, modelID: mutation.modelID),
                (held["_version"]?.intValue ?? 0) > (newest?["_version"]?.intValue ?? -1)
            {
                newest = held
            }
            guard let newest else { return [] }
            let stored = try table.metadata(key: newest, using: db.cachedStatement(sql: table.selectMetadataByKeySQL))
            if let local = stored?.syncedVersion {
                let version = newest["_version"]?.intValue ?? 0
                guard version > local || (refused && version == local) else { return [] }
            }
            if let version = newest["_version"] { try Outbox.setVersion(db, model: model, modelID: mutation.modelID, version: version) }
            if pending {
                // The device changed the item again meanwhile: its row keeps those changes and
                // takes only the version, which the next mutation sends.
                try db.execute(
                    sql: table.updateSyncMetadataByKeySQL,
                    arguments: StatementArguments([newest["_version"]?.intValue, newest["_lastChangedAt"]?.intValue] + table.keyArguments(newest)))
                return []
            }
            try table.put(newest, in: db)
            let deleted = newest["_deleted"]?.boolValue == true
            let wasLive = stored.map { !$0.deleted } ?? false
            return [StoredChange(modelName: model, mutationType: deleted ? .delete : (wasLive ? .update : .create), item: newest, isRemote: true)]
        }
    }
}
