import GRDB

/// Per-model sync state: when the model last synced and with which sync expression. The sync
/// engine reads it to choose a delta or a full sync.
public struct ModelSyncMetadata: Sendable, Equatable {
    /// The model's GraphQL type name.
    public let modelName: String
    /// Milliseconds since 1970: the `startedAt` of the last completed sync.
    public let lastSync: Int?
    /// The sync expression's filter input as JSON text, `nil` for none.
    public let syncExpression: String?

    package init(modelName: String, lastSync: Int?, syncExpression: String?) {
        self.modelName = modelName
        self.lastSync = lastSync
        self.syncExpression = syncExpression
    }
}

extension ModelSyncMetadata {
    package static func fetch(_ db: Database, model: String) throws -> ModelSyncMetadata? {
        try ModelSyncRecord.fetchOne(db, key: model)?.metadata
    }

    package func save(_ db: Database) throws {
        try ModelSyncRecord(self).insert(db, onConflict: .replace)
    }

    package static func removeAll(_ db: Database) throws {
        _ = try ModelSyncRecord.deleteAll(db)
    }
}

/// A model's row of the sync state table.
struct ModelSyncRecord: Codable, FetchableRecord, PersistableRecord, Sendable {
    static let databaseTableName = ClientTables.modelSync

    var model: String
    var lastSync: Int?
    var syncExpression: String?

    init(_ metadata: ModelSyncMetadata) {
        model = metadata.modelName
        lastSync = metadata.lastSync
        syncExpression = metadata.syncExpression
    }

    var metadata: ModelSyncMetadata {
        ModelSyncMetadata(modelName: model, lastSync: lastSync, syncExpression: syncExpression)
    }
}
