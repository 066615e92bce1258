import DeltaSyncCore

/// What can go wrong in a ``DataStore`` call; each case says what to do about it.
public enum DataStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stored or received item does not fit the generated model.
    case decoding(model: String, field: String?, reason: String)
    /// `save(_:where:)` or `delete(_:where:)` with a condition the stored item does not meet,
    /// or a condition on an item that does not exist.
    case conditionFailed(model: String, reason: String)
    /// The model type is not in the registry the store was opened with.
    case unknownModel(String)
    /// A key whose fields are not the model's key fields, or an `id` for a model whose key has
    /// several fields.
    case invalidIdentifier(model: String, reason: String)
    /// The local database failed.
    case storage(String)
    /// The sync configuration (an `amplifyconfiguration.json`) cannot be used.
    case configuration(String)
    /// The backend could not be reached or answered with something other than GraphQL; pending
    /// changes stay in the outbox.
    case network(String)
    /// The backend refused a sync query or a mutation (`errorType` and message as it sent them).
    case rejected(model: String, errorType: String, message: String)
    /// A model's sync stopped at `syncMaxRecords` before the last page: the model is not marked
    /// synced, so the next sync is full again.
    case syncMaxRecordsReached(model: String, limit: Int)
    /// Sync was stopped (``DataStore/stop()``, ``DataStore/clear()``, or the store was
    /// released) before it became ready.
    case stopped
    /// Outbox mutations that no longer fit the schema after it changed; reported through the
    /// error handler and removed from the outbox.
    case pendingMutationsDropped(model: String, count: Int, reason: String)
    /// An outbox row that cannot be read (changed outside DeltaSync, or damaged). It is
    /// removed without being sent, and reported through the error handler and
    /// ``DataStoreEvent/outboxMutationDropped(_:)``.
    case unreadableOutboxMutation(sequence: Int64, model: String, reason: String)

    /// What went wrong and what to do, for logs.
    public var description: String {
        switch self {
        case .decoding(let model, let field, let reason):
            return "Cannot read \(model)\(field.map { ".\($0)" } ?? ""): \(reason). Regenerate the models from the schema the data was written with."
        case .conditionFailed(let model, let reason):
            return "The condition on \(model) was not met: \(reason)."
        case .unknownModel(let name):
            return "\(name) is not a model of this DataStore. Pass it in the models the DataStore is created with (the generated registry lists them all)."
        case .invalidIdentifier(let model, let reason):
            return "This identifier does not name a \(model): \(reason)."
        case .storage(let message):
            return "The local store failed: \(message)"
        case .configuration(let message):
            return "Cannot sync with this configuration: \(message)."
        case .network(let message):
            return "Sync could not reach the backend: \(message). Pending changes stay in the outbox."
        case .rejected(let model, let errorType, let message):
            return "The backend refused a \(model) request (\(errorType)): \(message)"
        case .syncMaxRecordsReached(let model, let limit):
            return "\(model) has more than syncMaxRecords (\(limit)) items to sync; raise syncMaxRecords or narrow its sync expression. It stays unsynced."
        case .stopped:
            return "Sync was stopped before it was ready. Call start() to sync again."
        case .pendingMutationsDropped(let model, let count, let reason):
            return "\(count) pending \(model) mutation(s) were removed from the outbox: \(reason)."
        case .unreadableOutboxMutation(let sequence, let model, let reason):
            return "Pending \(model) mutation #\(sequence) cannot be read (\(reason)); it was removed from the outbox without being sent. The database file was changed outside DeltaSync or is damaged."
        }
    }
}
