import DeltaSyncCore
import Foundation

/// Where and how a ``DataStore`` syncs.
///
/// ```swift
/// let configuration = DataStoreConfiguration(
///     endpoint: SyncEndpoint(url: URL(string: "http://127.0.0.1:20002/graphql")!, apiKey: "da2-..."),
///     syncExpressions: [.init(Post.self) { Post.keys.blogID == "b1" }])
/// ```
public struct DataStoreConfiguration: Sendable {
    /// The AppSync (or `deltasync serve`) GraphQL endpoint; `nil` keeps the store local-only.
    public var endpoint: SyncEndpoint?
    /// A model last synced longer ago than this gets a full sync; otherwise a delta sync.
    public var syncInterval: Duration = .seconds(24 * 60 * 60)
    /// Items per sync query page (AppSync caps it at 1,000).
    public var syncPageSize = 1_000
    /// The most items one model's sync fetches.
    public var syncMaxRecords = 10_000
    /// Which items of a model this device keeps (selective sync).
    public var syncExpressions: [SyncExpression] = []

    public init(endpoint: SyncEndpoint? = nil, syncExpressions: [SyncExpression] = []) {
        self.endpoint = endpoint
        self.syncExpressions = syncExpressions
    }
}

/// A GraphQL endpoint and its API key.
public struct SyncEndpoint: Sendable {
    public var url: URL
    public var apiKey: String

    public init(url: URL, apiKey: String) {
        self.url = url
        self.apiKey = apiKey
    }
}

/// The items of one model to sync, evaluated each time sync starts.
public struct SyncExpression: Sendable {
    public let modelName: String
    public let predicate: @Sendable () -> QueryPredicate

    public init<M: Model>(_ type: M.Type, where predicate: @escaping @Sendable () -> QueryPredicate) {
        modelName = M.modelName
        self.predicate = predicate
    }
}
