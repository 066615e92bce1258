import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncStorage

extension ItemStore {
    /// A sync's stamp (``ItemStore/stampSync(now:)``).
    func stamp(_ now: Int) async throws -> Int {
        try await stampSync(now: now)
    }

    func deltaPage(_ model: ModelSchema, _ query: DeltaQuery) async throws -> ItemPage {
        try await read { tx in try tx.deltas(model, query) }
    }

    /// Every page of `query`, followed through `lastEvaluated`.
    func deltaPages(_ model: ModelSchema, _ query: DeltaQuery) async throws -> [ItemPage] {
        var query = query
        var pages: [ItemPage] = []
        repeat {
            let page = try await deltaPage(model, query)
            pages.append(page)
            query.after = page.lastEvaluated
        } while query.after != nil && pages.count < 10_000
        return pages
    }

    /// Writes each item and logs it as one change, the way a mutation does.
    @discardableResult
    func change(_ model: ModelSchema, _ items: [Item], now: Int) async throws -> [Int] {
        try await write { tx in
            try items.map { item in
                let changedAt = try tx.stampChange(now: now)
                var item = item
                item["_lastChangedAt"] = .int(changedAt)
                try tx.put(model, item)
                try tx.appendDelta(model, item: item, changedAt: changedAt)
                return changedAt
            }
        }
    }
}
