/// Bounds on running one GraphQL request, after its document passed ``DocumentLimits``.
///
/// A 243-byte query nesting connections four levels deep (`books(limit: 100) { items { author
/// { books ...`) read a hundred million items and grew the server past 3 GB; 500 aliases of a
/// 1,000-item list did the same. AppSync bounds a request by its resolver count (10,000 by
/// default), its run time (30 seconds) and its response size; so does this server, and every
/// other client keeps being served meanwhile.
public struct ExecutionLimits: Sendable, Equatable {
    /// Field resolvers one request may run (root fields, connections, `@belongsTo` objects):
    /// AppSync's `resolverCountLimit` default. Default 10,000.
    public var maxResolvers = 10_000
    /// Items one request may read, over all its pages. Each page reserves its `limit` (100 when
    /// not given) before it is read and gives back what it did not use, so 100 items with a
    /// nested connection each reserve 10,100. A full sync page is 1,000. Default 12,000.
    public var maxItems = 12_000
    /// The largest response body; a larger one is replaced by an error. Default 5 MiB.
    public var maxResponseBytes = 5 * 1024 * 1024
    /// How long a request may run before it is answered with an error: AppSync's 30 seconds.
    public var timeout: Duration = .seconds(30)

    public init() {}
}
