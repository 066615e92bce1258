/// A local change the backend refused because the item changed there first
/// (`ConflictUnhandled`): what this device sent and what the backend holds.
public struct DataStoreConflict: Sendable {
    /// The model's GraphQL type name.
    public let modelName: String
    /// What this device sent: `.update` or `.delete`.
    public let mutationType: MutationType
    /// The model as this device has it.
    public let local: any Model
    /// The model as the backend has it.
    public let remote: any Model
}

/// What to do with a refused local change, as Amplify's `DataStoreConflictHandlerResult`.
public enum ConflictResolution: Sendable {
    /// Keep the backend's version; the local change is dropped.
    case applyRemote
    /// Send the local change again, based on the backend's version.
    case retryLocal
    /// Send this model as an update instead, based on the backend's version.
    case retry(any Model)
}
