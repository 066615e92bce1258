import DeltaSyncCore

/// What the sync engine is doing, as Amplify DataStore's Hub events: ``DataStore/events``
/// delivers them in order.
///
/// ```swift
/// let events = dataStore.events
/// try await dataStore.start()
/// for await event in events { if case .ready = event { break } }
/// ```
public enum DataStoreEvent: Sendable {
    /// The backend became reachable (`true`) or stopped being reachable (`false`).
    case networkStatus(active: Bool)
    /// Every model's create, update and delete subscriptions are running.
    case subscriptionsEstablished
    /// The sync queries of these models are about to run.
    case syncQueriesStarted(models: [String])
    /// One model finished its base or delta sync.
    case modelSynced(ModelSyncedEvent)
    /// The backend refused one model's sync query (`Unauthorized`: the user's rules do not
    /// allow syncing it); the model is skipped and the others sync.
    case modelSyncRefused(model: String, reason: String)
    /// Every model finished syncing.
    case syncQueriesReady
    /// Synced, and local changes are being sent: the store follows the backend live.
    case ready
    /// A local change was recorded in the outbox.
    case outboxMutationEnqueued(MutationEvent)
    /// The backend accepted a local change; `version` is the one it gave the item.
    case outboxMutationProcessed(MutationEvent)
    /// Whether changes are waiting to be sent.
    case outboxStatus(isEmpty: Bool)
    /// The backend refused a local change because its condition no longer held; the change
    /// was dropped.
    case conditionalSaveFailed(MutationEvent)
    /// A change from the backend (a sync page or a subscription) was stored locally.
    case syncReceived(MutationEvent)
    /// A pending change was removed from the outbox without being sent; the error says why
    /// (also given to the error handler).
    case outboxMutationDropped(DataStoreError)
}

/// One model change travelling between the device and the backend.
public struct MutationEvent: Sendable, Equatable {
    /// The model's GraphQL type name.
    public let modelName: String
    /// The model's key, as ``ModelIdentifier/description`` writes it.
    public let modelID: String
    /// Whether the change created, updated or deleted the model.
    public let mutationType: MutationType
    /// The model's fields (for a delete sent by this device, its key).
    public let item: Item
    /// The item's `_version` on the backend, when known.
    public var version: Int? { item["_version"]?.intValue }

    /// An event for the change of one model.
    public init(modelName: String, modelID: String, mutationType: MutationType, item: Item) {
        self.modelName = modelName
        self.modelID = modelID
        self.mutationType = mutationType
        self.item = item
    }

    /// The item as a generated model.
    public func model<M: Model>(as type: M.Type) throws(DataStoreError) -> M {
        try M(item: item)
    }
}
