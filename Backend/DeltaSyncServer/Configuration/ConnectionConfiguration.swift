import DeltaSyncGraphQL
/// Limits and timeouts of the HTTP port's connections. Without them a client that opens sockets
/// and sends nothing (or a request that never ends) holds a file descriptor for good, and enough
/// of them make `/graphql` and `/health` unreachable.
///
/// ```swift
/// var configuration = ServerConfiguration()
/// configuration.connections.idleTimeout = .milliseconds(200) // a test of the idle close
/// configuration.connections.maxConnections = 8
/// ```
public struct ConnectionConfiguration: Sendable {
    /// How long a connection may stay open with no request in progress (just accepted, or its
    /// last response written) before it is closed without a response. Node and nginx use 5-75 s.
    public var idleTimeout: Duration = .seconds(60)
    /// How long a request's head (request line and headers) may take to arrive, counted from
    /// its first byte: a slower one gets 408 and a close.
    public var requestHeadTimeout: Duration = .seconds(30)
    /// How long a request's body may take to arrive, counted from the end of its head: a slower
    /// one gets 408 (or only the close, when its response has already started).
    public var requestBodyTimeout: Duration = .seconds(60)
    /// Largest request head (request line and headers, bytes of names, values and target). A
    /// larger one gets 431. Within the 16-80 KB servers commonly accept; a DataStore request
    /// carries well under 4 KB of headers.
    public var maxRequestHeadBytes: Int = 32 * 1024
    /// Most connections open at once. `nil` takes the process's open-file limit
    /// (`ulimit -n`) minus ``reservedDescriptors``, so the server runs out of connection slots
    /// before it runs out of descriptors and can still accept. At the limit a new connection
    /// closes the connection that has been idle longest, or is closed itself when none is idle.
    public var maxConnections: Int?
    /// Descriptors kept for the store, the listening socket and outgoing connections when
    /// ``maxConnections`` is taken from the open-file limit.
    public var reservedDescriptors = 64
    /// Connection slots WebSockets may not take: realtime connections are never idle-closed,
    /// so without this reserve subscribers could leave no room for `/graphql` and `/health`.
    /// An upgrade beyond `maxConnections - reservedForHTTP` open WebSockets gets 503.
    public var reservedForHTTP = 16

    public init() {}
}
