/// One model's sync finished: full or delta, and what it changed locally.
public struct ModelSyncedEvent: Sendable, Equatable {
    public let modelName: String
    public let isFullSync: Bool
    public var isDeltaSync: Bool { !isFullSync }
    public let added: Int
    public let updated: Int
    public let deleted: Int

    public init(modelName: String, isFullSync: Bool, added: Int, updated: Int, deleted: Int) {
        self.modelName = modelName
        self.isFullSync = isFullSync
        self.added = added
        self.updated = updated
        self.deleted = deleted
    }
}
