import DeltaSyncCore
import DeltaSyncStorage

extension DynamoDBDataSource {
    /// `Sync` on a versioned table, as the generated `syncX` resolvers run it: a base read of
    /// every item (tombstones included) without a `lastSync`, or with one older than the delta
    /// log's retention; otherwise the changes after `lastSync` from the delta log. `startedAt`
    /// is stamped on the change clock on the first page and kept through `nextToken`; `filter`
    /// applies to each page after it is read; `limit` is 100 by default, at most 1,000.
    func sync(_ request: JSONValue) async throws -> JSONValue {
        guard table.versioned else {
            throw DataSourceFailure.validation("Sync needs a versioned data source: this API has no conflict detection.")
        }
        let filter = try DynamoDBLanguage.condition(request["filter"], what: "FilterExpression")
        let limit = min(try Self.limit(request["limit"].isNull ? 100 : request["limit"], max: environment.maxPageSize), 1000)
        let tokenName = "Sync:\(table.model.name)"
        let token = try request["nextToken"].stringValue.map { text throws(AppSyncError) in try environment.tokens.decode(text, for: tokenName) }
        let lastSync = request["lastSync"].intValue
        let now = environment.nowMilliseconds
        let inDeltaWindow = lastSync.map { $0 != 0 && now - environment.sync.deltaTTLMilliseconds <= $0 } ?? false
        let useDelta = token.map { $0.source == "delta" } ?? inDeltaWindow
        let startedAt: Int
        if let fixed = token?.startedAt { startedAt = fixed } else { startedAt = try await environment.store.stampSync(now: now) }
        let model = table.model
        let page: ItemPage
        if useDelta {
            let query = DeltaQuery(since: token?.since ?? lastSync ?? 0, limit: limit, after: token?.cursor)
            page = try await environment.store.read { tx in try tx.deltas(model, query) }
        } else {
            let query = ItemQuery(access: .scan, limit: limit, after: token?.cursor)
            page = try await environment.store.read { tx in try tx.query(model, query) }
        }
        let items = page.items.filter { filter?($0) ?? true }
        let nextToken: JSONValue = page.lastEvaluated.map { cursor in
            .string(environment.tokens.encode(.init(
                query: tokenName, cursor: cursor, startedAt: startedAt, source: useDelta ? "delta" : "base",
                since: useDelta ? (token?.since ?? lastSync) : nil)))
        } ?? .null
        return ["items": .array(items.map(JSONValue.object)), "nextToken": nextToken, "startedAt": .int(startedAt)]
    }
}
