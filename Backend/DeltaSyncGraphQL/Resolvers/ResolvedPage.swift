import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncStorage

/// One page of a connection field as its resolver read it: the items for the GraphQL
/// executor, or, when the request's plan lets the items skip the executor, their JSON array
/// written while the store read them (see ``ItemProjection/writer(for:)``).
struct ResolvedPage: Sendable {
    var items: PageObject.Items
    var end: PageEnd

    init(items: PageObject.Items, end: PageEnd) {
        self.items = items
        self.end = end
    }

    init(_ page: ItemPage) {
        self.init(items: .objects(page.items.map { ModelObject(item: $0) }), end: PageEnd(lastEvaluated: page.lastEvaluated, scanned: page.scanned))
    }

    /// Reads one page of `query`. With a writer, each item is written as it is read, from the
    /// row the store is stepped on (``StoredRow``).
    static func read(
        _ model: ModelSchema, _ query: ItemQuery, from store: any ItemStore, writer: ItemProjection.ItemArrayWriter?
    ) async throws -> ResolvedPage {
        try await store.read { tx in
            guard let writer else { return ResolvedPage(try tx.query(model, query)) }
            var array = ProjectedArray(capacity: min(query.limit, 1000))
            let end = try tx.query(model, query, fields: writer.fields) { row in writer.append(row, to: &array) }
            return ResolvedPage(items: .projected(array), end: end)
        }
    }
}
