import DeltaSyncCore

/// What a mutation did to a model.
public enum MutationType: String, Sendable, Codable {
    case create, update, delete
}

/// One change of one model, as ``DataStore/observe(_:)`` delivers it.
public struct ModelChange<M: Model>: Sendable {
    public let mutationType: MutationType
    /// The model after the change; for a delete, as it was when deleted.
    public let model: M
    /// `true` for a change that came from the backend (a sync page or a subscription event).
    public let isRemote: Bool
}

/// The results of an ``DataStore/observeQuery(for:where:sort:)`` query at one moment.
public struct QuerySnapshot<M: Model>: Sendable {
    public let items: [M]
    /// Whether the model finished syncing with the backend this session; always `false` in
    /// local-only mode.
    public let isSynced: Bool
}

/// An untyped change, as the local store records it.
struct StoredChange: Sendable {
    let modelName: String
    let mutationType: MutationType
    let item: Item
    let isRemote: Bool
}

/// What the store publishes to its observers, in commit order.
enum StoreUpdate: Sendable {
    /// The changes one transaction committed.
    case committed([StoredChange])
    /// A model finished its sync this session: its query snapshots are now synced.
    case synced(modelName: String)
}
