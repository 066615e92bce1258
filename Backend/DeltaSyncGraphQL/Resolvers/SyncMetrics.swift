/// Where resolvers report what operators chart: conflicts by handler and outcome, sync pages
/// and items by source. The server's Prometheus metrics implement it; `nil` reports nothing.
package protocol SyncMetrics: Sendable {
    /// A version conflict settled by `handler` (`AUTOMERGE`, ...) with `outcome` (`merged`,
    /// `rejected`, `resolved`, `removed`, `error`).
    func conflict(handler: String, outcome: String)
    /// One page of a sync query from `source` (`base` or `delta`) with `items` items.
    func syncPage(source: String, items: Int)
}
