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
    private let results = NIOLockedValueBox<[String: Map]>([:])

    /// The outcome of a root mutation field ``MutationShortcut`` already ran, by response key:
    /// its resolver hands it to the executor instead of running the mutation again.
    private let earlierResults: [String: Result<ItemObject, any Error>]

    /// What the request has left to spend on resolvers and items.
    let budget: ResolverBudget

    init(
        explain: Bool, defersItems: Bool, budget: ResolverBudget,
        earlierResults: [String: Result<ItemObject, any Error>] = [:]
    ) {
        plans = QueryPlanLog(explain: explain)
        self.budget = budget
        self.defersItems = defersItems
        self.earlierResults = earlierResults
    }

    /// The response key of a root field; `nil` for a nested one.
    private static func rootKey(_ info: GraphQLResolveInfo) -> String? {
        guard info.path.elements.count == 1, case .key(let key) = info.path.elements[0].indexPathValue else { return nil }
        return key
    }

    /// What the root field at `info`'s path returned or threw when ``MutationShortcut`` ran it.
    func earlierResult(_ info: GraphQLResolveInfo) -> Result<ItemObject, any Error>? {
        Self.rootKey(info).flatMap { earlierResults[$0] }
    }

    /// Root results completed by ``ItemProjection``, by response key. The executor saw `null`
    /// for them; they belong in `data` in its place.
    var completedResults: [String: Map] { results.withLockedValue { $0 } }

    /// The selection a root field's result can be completed on: `nil` for a nested field, a
    /// non-null result type (a `null` handed to the executor would be an error) or a field
    /// with directives.
    func resultSelection(_ info: GraphQLResolveInfo) -> SelectionSet? {
        guard Self.rootKey(info) != nil, !(info.returnType is GraphQLNonNull), info.fieldASTs.count == 1,
            let field = info.fieldASTs.first, field.directives.isEmpty
        else { return nil }
        return field.selectionSet
    }

    /// Records the completed result of the root field at `info`'s path.
    func complete(_ info: GraphQLResolveInfo, with result: Map) {
        guard let key = Self.rootKey(info) else { return }
        results.withLockedValue { $0[key] = result }
    }

    func deferPage(_ page: DeferredPage) {
        pages.withLockedValue { $0.append(page) }
    }

    var deferred: [DeferredPage] { pages.withLockedValue { $0 } }

    /// Where a root connection field's items go when the request defers them: `nil` when it
    /// does not, or the field is not a root field with one plain `items` selection.
    func itemsTarget(_ info: GraphQLResolveInfo) -> ItemsTarget? {
        guard defersItems, let rootKey = Self.rootKey(info) else { return nil }
        let itemsFields = info.fieldASTs.flatMap { $0.selectionSet?.selections ?? [] }.compactMap { $0 as? GraphQL.Field }
            .filter { $0.name.value == "items" }
        guard itemsFields.count == 1, let itemsField = itemsFields.first, let selection = itemsField.selectionSet,
            itemsField.directives.isEmpty
        else { return nil }
        return ItemsTarget(
            rootKey: rootKey, itemsKey: itemsField.alias?.value ?? "items", selection: selection, fragments: info.fragments)
    }

    /// Returns `connection` with its items (objects or a ``ProjectedArray``) moved aside.
    func deferItems(of connection: [String: any Sendable], model: Model, target: ItemsTarget) -> [String: any Sendable] {
        let content: DeferredPage.Content
        if let projected = connection["items"] as? ProjectedArray {
            content = .projected(projected)
        } else if let items = connection["items"] as? [ItemObject?] {
            content = .items(items.compactMap { $0?.item })
        } else {
            return connection
        }
        deferPage(DeferredPage(target: target, model: model, content: content))
        var emptied = connection
        emptied["items"] = [ItemObject?]()
        return emptied
    }
}

/// Where a root connection's items belong: `data.<rootKey>.<itemsKey>`, projected onto
/// `selection`.
struct ItemsTarget: @unchecked Sendable {
    let rootKey: String
    let itemsKey: String
    // AST nodes are immutable values of the parsed request; they are only read.
    let selection: SelectionSet
    let fragments: [String: FragmentDefinition]
}

/// A root connection's items, to be put back at their ``ItemsTarget``.
struct DeferredPage: Sendable {
    enum Content: Sendable {
        /// Items for ``ItemProjection`` to project.
        case items([Item])
        /// Items the resolver already wrote.
        case projected(ProjectedArray)
    }

    let target: ItemsTarget
    let model: Model
    let content: Content
}
