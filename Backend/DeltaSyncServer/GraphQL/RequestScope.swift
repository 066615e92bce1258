import DeltaSyncCore
import DeltaSyncSchema
import GraphQL
import NIOConcurrencyHelpers

/// Per-request state resolvers share with the executor: the explain log, and the item pages
/// of root connection fields whose `items` the executor projects itself (see ``ItemProjection``).
final class RequestScope: Sendable {
    let plans: QueryPlanLog
    /// Whether root connection resolvers hand their items to ``deferred`` instead of the
    /// GraphQL executor, which completes list items one task group per item.
    let defersItems: Bool
    private let pages = NIOLockedValueBox<[DeferredPage]>([])

    init(explain: Bool, defersItems: Bool) {
        plans = QueryPlanLog(explain: explain)
        self.defersItems = defersItems
    }

    func deferPage(_ page: DeferredPage) {
        pages.withLockedValue { $0.append(page) }
    }

    var deferred: [DeferredPage] { pages.withLockedValue { $0 } }

    /// Returns `connection` with its items moved aside when the request defers items and the
    /// field is a root field whose `items` selection can be found; otherwise unchanged.
    func deferItems(of connection: [String: any Sendable], model: Model, info: GraphQLResolveInfo)
        -> [String: any Sendable]
    {
        guard defersItems, info.path.elements.count == 1, case .key(let rootKey) = info.path.elements[0].indexPathValue,
            let items = connection["items"] as? [ItemObject?]
        else { return connection }
        let itemsFields = info.fieldASTs.flatMap { $0.selectionSet?.selections ?? [] }.compactMap { $0 as? GraphQL.Field }
            .filter { $0.name.value == "items" }
        guard itemsFields.count == 1, let itemsField = itemsFields.first, let selection = itemsField.selectionSet,
            itemsField.directives.isEmpty
        else { return connection }
        deferPage(
            DeferredPage(
                rootKey: rootKey, itemsKey: itemsField.alias?.value ?? "items", model: model,
                items: items.compactMap { $0?.item }, selection: selection, fragments: info.fragments))
        var emptied = connection
        emptied["items"] = [ItemObject?]()
        return emptied
    }
}

/// A root connection's items, to be projected onto `selection` and put back at
/// `data.<rootKey>.<itemsKey>`.
struct DeferredPage: @unchecked Sendable {
    let rootKey: String
    let itemsKey: String
    let model: Model
    let items: [Item]
    // AST nodes are immutable values of the parsed request; they are only read.
    let selection: SelectionSet
    let fragments: [String: FragmentDefinition]
}
