import GRDB

/// Per-model sync state: when the model last synced and with which sync expression. The sync
/// engine reads it to choose a delta or a full sync.
public struct ModelSyncMetadata: Sendable, Equatable {
    public let modelName: String
    /// Milliseconds since 1970: the `startedAt` of the last completed sync.
    public let lastSync: Int?
    /// The sync expression's filter input as JSON text, `nil` for none.
    public let syncExpression: String?
}

extension ModelSyncMetadata {
    static func create(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE IF NOT EXISTS deltasync_model_sync (
                model TEXT PRIMARY KEY NOT NULL, lastSync INTEGER, syncExpression TEXT
            ) WITHOUT ROWID
            """)
    }

    static func fetch(_ db: Database, model: String) throws -> ModelSyncMetadata? {
        try Row.fetchOne(db, sql: "SELECT lastSync, syncExpression FROM deltasync_model_sync WHERE model = ?", arguments: [model])
            .map { ModelSyncMetadata(modelName: model, lastSync: $0["lastSync"], syncExpression: $0["syncExpression"]) }
    }

    func save(_ db: Database) throws {
        try db.execute(
            sql: "INSERT OR REPLACE INTO deltasync_model_sync (model, lastSync, syncExpression) VALUES (?, ?, ?)",
            arguments: [modelName, lastSync, syncExpression])
    }

    static func removeAll(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM deltasync_model_sync")
    }
}
