import DeltaSyncCore

/// What a mutation did to a model.
public enum MutationType: String, Sendable, Codable {
    case create, update, delete
}

/// One change of one model, as ``DataStore/observe(_:)`` delivers it.
public struct ModelChange<M: Model>: Sendable {
    /// Whether the change created, updated or deleted the model.
    public let mutationType: MutationType
    /// The model after the change; for a delete, as it was when deleted.
    public let model: M
    /// `true` for a change that came from the backend (a sync page or a subscription event).
    public let isRemote: Bool
}

/// The results of an ``DataStore/observeQuery(for:where:sort:)`` query at one moment.
public struct QuerySnapshot<M: Model>: Sendable {
    /// The models matching the query, in its sort order.
    public let items: [M]
    /// Whether the model finished syncing with the backend this session; always `false` in
    /// local-only mode.
    public let isSynced: Bool
    /// The rowid each of `items` was read from (``ObservedRows``); empty when unknown.
    let rowids: [Int64]

    init(items: [M], isSynced: Bool, rowids: [Int64] = []) {
        self.items = items
        self.isSynced = isSynced
        self.rowids = rowids
    }

    /// Whether `other` holds the same models. Two models read from the same rowid are the
    /// same (``ObservedRows``), so only the positions whose rowids differ are compared.
    func hasSameItems(as other: Self) -> Bool where M: Equatable {
        guard items.count == other.items.count else { return false }
        guard rowids.count == items.count, other.rowids.count == items.count else { return items == other.items }
        for position in items.indices where rowids[position] != other.rowids[position] {
            if items[position] != other.items[position] { return false }
        }
        return true
    }
}

/// An untyped change, as the local store records it.
package struct StoredChange: Sendable {
    package let modelName: String
    package let mutationType: MutationType
    package let item: Item
    package let isRemote: Bool

    package init(modelName: String, mutationType: MutationType, item: Item, isRemote: Bool) {
        self.modelName = modelName
        self.mutationType = mutationType
        self.item = item
        self.isRemote = isRemote
    }
}

/// What the store publishes to its observers, in commit order.
package enum StoreUpdate: Sendable {
    /// The changes one transaction committed.
    case committed([StoredChange])
    /// A model finished its sync this session: its query snapshots are now synced.
    case synced(modelName: String)
    /// ``LocalStore/clear()`` deleted every model.
    case cleared
}
