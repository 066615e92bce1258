import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncStorage

/// One page of a connection field as its resolver read it: the items for the GraphQL
/// executor, or, when the request lets the items skip the executor, their JSON array written
/// while the store read them (see ``ItemProjection/writer(for:selection:fragments:)``).
struct ResolvedPage: Sendable {
    var items: [Item]
    var projected: ProjectedArray?
    var end: PageEnd

    init(items: [Item], projected: ProjectedArray? = nil, end: PageEnd) {
        self.items = items
        self.projected = projected
        self.end = end
    }

    init(_ page: ItemPage) {
        self.init(items: page.items, end: PageEnd(lastEvaluated: page.lastEvaluated, scanned: page.scanned))
    }

    /// The connection's `items` value: `[ItemObject?]` for the executor, or a
    /// ``ProjectedArray`` for ``RequestScope/deferItems(of:model:target:)`` to splice in.
    var connectionItems: any Sendable {
        if let projected { return projected }
        return items.map { ItemObject(item: $0) as ItemObject? }
    }

    /// Reads one page of `query`. With a writer, each item is written as it is read, while it
    /// is still in the CPU cache; if one cannot be written, the page is read again, in the same
    /// transaction, for the executor.
    static func read(
        _ model: Model, _ query: ItemQuery, from store: any ItemStore, writer: ItemProjection.ItemArrayWriter?
    ) async throws -> ResolvedPage {
        try await store.read { tx in
            if let writer {
                var array = ProjectedArray(model: model.name, capacity: min(query.limit, 1000))
                var written = true
                let end = try tx.query(model, query) { item in
                    if written { written = writer.append(item, to: &array) }
                }
                if written { return ResolvedPage(items: [], projected: array, end: end) }
            }
            return ResolvedPage(try tx.query(model, query))
        }
    }
}
