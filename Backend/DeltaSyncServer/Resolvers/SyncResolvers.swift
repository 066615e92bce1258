import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncStorage
import GraphQL

/// `syncXs(filter, limit, nextToken, lastSync)`: pages of the base table, tombstones included,
/// with a `startedAt` fixed for the whole pagination.
struct SyncResolvers: Sendable {
    let environment: ResolverEnvironment
    let queries: QueryResolvers

    /// AppSync's Sync operation: 100 items by default, at most 1,000 per page.
    static let defaultLimit = 100
    static let maxLimit = 1000

    func sync(_ model: Model, args: Map, queryName: String) async throws -> [String: any Sendable] {
        let limit = try QueryResolvers.limit(args, default: Self.defaultLimit, max: Self.maxLimit)
        let token = try args.argument("nextToken")?.stringValue.map {
            try environment.tokens.decode($0, for: queryName)
        }
        // Stamped before the first page is read, so a change committed while paging has a
        // later `_lastChangedAt` than the `startedAt` the client sends back as `lastSync`.
        let startedAt = token?.startedAt ?? environment.nowMilliseconds
        let query = ItemQuery(
            access: .scan,
            filter: try QueryPredicate(filter: args.argument("filter") ?? .null),
            limit: limit,
            after: token?.cursor
        )
        let page = try await environment.store.read { tx in try tx.query(model, query) }
        var connection: [String: any Sendable] = [
            "items": page.items.map { ItemObject(item: $0) as ItemObject? },
            "startedAt": startedAt,
        ]
        if let last = page.lastEvaluated {
            connection["nextToken"] = environment.tokens.encode(
                .init(query: queryName, cursor: last, startedAt: startedAt))
        }
        return connection
    }
}
