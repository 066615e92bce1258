/// One model's sync finished: full or delta, and what it changed locally.
public struct ModelSyncedEvent: Sendable, Equatable {
    /// The model's GraphQL type name.
    public let modelName: String
    /// `true` for a base (full) sync, `false` for a delta sync since the last one.
    public let isFullSync: Bool
    /// `true` for a delta sync.
    public var isDeltaSync: Bool { !isFullSync }
    /// Models stored that the device did not have.
    public let added: Int
    /// Models the sync changed.
    public let updated: Int
    /// Models the sync deleted.
    public let deleted: Int

    /// What one model's sync did.
    public init(modelName: String, isFullSync: Bool, added: Int, updated: Int, deleted: Int) {
        self.modelName = modelName
        self.isFullSync = isFullSync
        self.added = added
        self.updated = updated
        self.deleted = deleted
    }
}
