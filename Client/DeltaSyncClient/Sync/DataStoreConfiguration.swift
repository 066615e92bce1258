import DeltaSyncCore
import Foundation

/// Where and how a ``DataStore`` syncs, with Amplify DataStore's defaults.
///
/// ```swift
/// var configuration = DataStoreConfiguration(endpoint: SyncEndpoint(url: url, apiKey: "da2-..."))
/// configuration.syncExpressions = [SyncExpression(Post.self) { Post.keys.blogID == "b1" }]
/// configuration.conflictHandler = { conflict in .retryLocal }
/// configuration.errorHandler = { error in print("sync: \(error)") }
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
    /// Which items of a model this device keeps (selective sync), evaluated on every start.
    public var syncExpressions: [SyncExpression] = []
    /// Decides what happens to a local change the backend refused because the item changed
    /// there first (`ConflictUnhandled`). The default keeps the backend's version.
    public var conflictHandler: @Sendable (DataStoreConflict) async -> ConflictResolution = { _ in .applyRemote }
    /// Told of every problem that does not fail a call: refused mutations, sync failures,
    /// pending mutations dropped by a schema change.
    public var errorHandler: @Sendable (DataStoreError) -> Void = { _ in }
    /// How long sync waits before trying again after the backend could not be reached.
    public var retryBackoff = RetryBackoff()
    /// Which credentials each request carries. Default ``AuthModeStrategy/default``.
    public var authModeStrategy = AuthModeStrategy.default
    /// Tells sync when the device's network path comes and goes, so that it reconnects as soon
    /// as the path returns instead of after its backoff (up to ``RetryBackoff/maximum``), and
    /// drops a connection the moment the path goes. Default: ``SystemNetworkPathMonitor`` on
    /// Apple platforms, `nil` (backoff and keep-alive only) elsewhere.
    public var networkMonitor: (any NetworkPathMonitor)? = DataStoreConfiguration.systemNetworkMonitor
    /// The networking for queries, mutations and the realtime connection. Default
    /// ``NetworkStack/platformDefault``: the system's on Apple platforms, SwiftNIO on Linux.
    public var network = NetworkStack.platformDefault

    /// A configuration with Amplify's defaults; without `endpoint` the store stays local-only.
    public init(endpoint: SyncEndpoint? = nil, syncExpressions: [SyncExpression] = []) {
        self.endpoint = endpoint
        self.syncExpressions = syncExpressions
    }

    /// The platform's own network path monitor, where there is one.
    private static var systemNetworkMonitor: (any NetworkPathMonitor)? {
        #if canImport(Network)
        return SystemNetworkPathMonitor()
        #else
        return nil
        #endif
    }
}

/// A GraphQL endpoint and how to authenticate with it.
public struct SyncEndpoint: Sendable {
    /// The GraphQL endpoint, e.g. `http://127.0.0.1:20002/graphql` for `deltasync serve`.
    public var url: URL
    /// The credentials every request, the realtime connection and every subscription carry
    /// (with ``AuthModeStrategy/multiAuth``, those the rules do not pick another mode for).
    public var authorization: SyncAuthorization
    /// Credentials for the API's other modes, which ``AuthModeStrategy/multiAuth`` may pick.
    public var additionalAuthorizations: [SyncAuthorization] = []

    /// The API key, when ``authorization`` is one (empty otherwise); setting it switches to it.
    public var apiKey: String {
        get { if case .apiKey(let key) = authorization { return key } else { return "" } }
        set { authorization = .apiKey(newValue) }
    }

    /// The endpoint at `url`, with `apiKey`.
    public init(url: URL, apiKey: String) {
        self.url = url
        authorization = .apiKey(apiKey)
    }

    /// The endpoint at `url`, authenticated by `authorization` (user pools, OIDC, Lambda).
    public init(url: URL, authorization: SyncAuthorization) {
        self.url = url
        self.authorization = authorization
    }

    /// `host[:port]` of ``url``, as a `Host` header (and SigV4) names it.
    var hostHeader: String {
        var host = url.host ?? ""
        if let port = url.port { host += ":\(port)" }
        return host
    }

    /// The realtime WebSocket endpoint, as Amplify derives it: AppSync's own domains move to
    /// `appsync-realtime-api` over `wss`; any other host (a custom domain, `deltasync serve`)
    /// serves it at `<path>/realtime` over `ws` or `wss` like the HTTP scheme.
    public var realtimeURL: URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        if let host = components.host, host.hasSuffix(".amazonaws.com"), host.contains(".appsync-api.") {
            components.host = host.replacingOccurrences(of: ".appsync-api.", with: ".appsync-realtime-api.")
            components.scheme = "wss"
        } else {
            components.scheme = components.scheme == "https" ? "wss" : "ws"
            components.path = (components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path) + "/realtime"
        }
        return components.url ?? url
    }
}

/// The items of one model to sync, evaluated each time sync starts.
public struct SyncExpression: Sendable {
    /// The model's GraphQL type name.
    public let modelName: String
    /// The items to keep, evaluated each time sync starts (so it can read the app's current state).
    public let predicate: @Sendable () -> QueryPredicate

    /// Syncs only the items of `type` matching `predicate`.
    public init<M: Model>(_ type: M.Type, where predicate: @escaping @Sendable () -> QueryPredicate) {
        modelName = M.modelName
        self.predicate = predicate
    }

    /// Syncs only the items of the model named `modelName` matching `predicate`: for a store
    /// of a schema read at run time rather than generated models.
    ///
    /// ```swift
    /// let open = SyncExpression(modelName: "Todo") { .field("done", .eq(false)) }
    /// ```
    public init(modelName: String, where predicate: @escaping @Sendable () -> QueryPredicate) {
        self.modelName = modelName
        self.predicate = predicate
    }
}

/// Capped exponential backoff with jitter: the wait before attempt `n` is
/// `min(maximum, base × 2ⁿ)` plus up to `base` of random jitter, as Amplify waits.
public struct RetryBackoff: Sendable {
    /// The first wait, and the jitter added to every wait.
    public var base: Duration
    /// The longest wait.
    public var maximum: Duration

    /// Waits from `base`, doubling per attempt, up to `maximum`.
    public init(base: Duration = .milliseconds(100), maximum: Duration = .seconds(300)) {
        self.base = base
        self.maximum = maximum
    }

    /// The wait before retry number `attempt` (0 for the first retry).
    public func delay(attempt: Int) -> Duration {
        let exponential = base * (1 << min(attempt, 30))
        let capped = exponential > maximum ? maximum : exponential
        return capped + base * Double.random(in: 0..<1)
    }
}
