import DeltaSyncSchema
import GraphQL

/// How one operation of a validated document is answered, decided once when the document is
/// first validated (and cached with it), before any resolver runs.
///
/// A request runs its resolvers once, always. The executor runs them; the plan says which
/// root fields' values it does not complete itself:
/// - a list, index or sync query whose `items` ``ItemProjection`` writes (``Root/page(_:)``),
///   spliced into the response where the executor left an empty list;
/// - a `get` query's or a mutation's object, completed by projection when it needs no other
///   reads (``Root/object(_:)``);
/// - a single generated mutation, run without the executor at all (``mutation``).
///
/// Whatever the plan leaves out (directives on root fields, nested connections, custom
/// fields) the executor completes, in the same single run.
struct ResponsePlan: Sendable {
    /// A root field's value that projection completes, by response key.
    enum Root: Sendable {
        case page(PagePlan)
        case object(ItemPlan)
    }

    /// A root connection whose items are written by projection, found in the response at
    /// `data.<root key>.<itemsKey>`.
    struct PagePlan: Sendable {
        let itemsKey: String
        let items: ItemPlan
    }

    /// The operation's type; `nil` when the request names no operation of the document (the
    /// executor reports that).
    let operationType: OperationType?
    /// The operation itself; `nil` with ``operationType``.
    var operation: OperationDefinition? { definition?.operation }
    private let definition: OperationBox?

    /// AST nodes are immutable values of the parsed request; they are only read.
    private struct OperationBox: @unchecked Sendable { let operation: OperationDefinition }
    let roots: [String: Root]
    /// The operation as one generated mutation that needs no executor.
    let mutation: MutationShortcut?
    /// The operation's filter and condition variables, checked before anything coerces them.
    let filterVariables: FilterVariables?

    /// The operation's name, for matching a request's `operationName`.
    let name: String?
    /// How logs and metrics name the operation, worked out with the plan rather than per request.
    let summary: OperationSummary

    /// The plan of each operation of `document`.
    static func plans(for document: Document, schema: ExecutableSchema) -> [ResponsePlan] {
        let fragments = document.fragmentsByName
        return document.definitions.compactMap { $0 as? OperationDefinition }.map { operation in
            ResponsePlan(operation, fragments: fragments, schema: schema)
        }
    }

    /// The plan for a request's `operationName` among `plans`: the named operation, or without a
    /// name the document's only one. A name that matches no operation gets an empty plan: the
    /// executor refuses the request (`Unknown operation named ...`) and nothing runs.
    static func select(_ plans: [ResponsePlan], operationName: String?) -> ResponsePlan {
        let none = ResponsePlan(operationType: nil, roots: [:], mutation: nil, name: nil)
        guard let operationName else { return plans.count == 1 ? plans[0] : none }
        return plans.first { $0.name == operationName } ?? none
    }

    private init(operationType: OperationType?, roots: [String: Root], mutation: MutationShortcut?, name: String?) {
        self.operationType = operationType
        definition = nil
        self.roots = roots
        self.mutation = mutation
        self.name = name
        filterVariables = nil
        summary = OperationSummary(description: "(no operation)", rootFields: "none")
    }

    private init(_ operation: OperationDefinition, fragments: [String: FragmentDefinition], schema: ExecutableSchema) {
        operationType = operation.operation
        definition = OperationBox(operation: operation)
        name = operation.name?.value
        let fields = operation.selectionSet.selections.compactMap { ($0 as? GraphQL.Field)?.name.value }.joined(separator: " ")
        summary = OperationSummary(
            description: "\(operation.operation.rawValue) \(operation.name?.value ?? "{ \(fields) }")",
            rootFields: fields.isEmpty ? "none" : fields)
        mutation = MutationShortcut(operation, fragments: fragments, schema: schema)
        filterVariables = FilterVariables(operation)
        roots = Self.roots(of: operation, fragments: fragments, schema: schema)
    }

    /// Root fields written plainly (no fragment, no directive) and once: the executor merges
    /// repeated keys and applies directives, so those stay with it.
    private static func roots(
        of operation: OperationDefinition, fragments: [String: FragmentDefinition], schema: ExecutableSchema
    ) -> [String: Root] {
        guard operation.operation != .subscription, operation.directives.isEmpty else { return [:] }
        var fields: [String: [GraphQL.Field]] = [:]
        for selection in operation.selectionSet.selections {
            guard let field = selection as? GraphQL.Field else { return [:] }
            fields[field.alias?.value ?? field.name.value, default: []].append(field)
        }
        var roots: [String: Root] = [:]
        for (key, asts) in fields {
            guard asts.count == 1, let field = asts.first, field.directives.isEmpty, let selection = field.selectionSet,
                let root = schema.rootField(field.name.value, of: operation.operation)
            else { continue }
            switch root {
            case .page(let model):
                if let page = page(model, selection: selection, fragments: fragments, planner: schema.planner) { roots[key] = .page(page) }
            case .object(let model):
                if let plan = schema.planner.plan(model, selection: [selection], fragments: fragments), !plan.hasRelations {
                    roots[key] = .object(plan)
                }
            }
        }
        return roots
    }

    /// A connection's selection with one plain `items` field and nothing else that could
    /// merge into it; `nil` where the executor must complete it. Root connections and, in
    /// queries, relation connections (``RequestScope/nestedPage(_:model:)``) are planned here.
    static func page(
        _ model: ModelSchema, selection: SelectionSet, fragments: [String: FragmentDefinition], planner: ItemPlanner
    ) -> PagePlan? {
        var itemsFields: [GraphQL.Field] = []
        var keys: [String] = []
        for selection in selection.selections {
            guard let field = selection as? GraphQL.Field else { return nil }
            keys.append(field.alias?.value ?? field.name.value)
            if field.name.value == "items" { itemsFields.append(field) }
        }
        guard itemsFields.count == 1, let items = itemsFields.first, items.directives.isEmpty,
            let itemsSelection = items.selectionSet
        else { return nil }
        let itemsKey = items.alias?.value ?? "items"
        guard keys.filter({ $0 == itemsKey }).count == 1,
            let plan = planner.plan(model, selection: [itemsSelection], fragments: fragments)
        else { return nil }
        return PagePlan(itemsKey: itemsKey, items: plan)
    }
}

/// An operation as the request log and metrics name it.
package struct OperationSummary: Sendable, Equatable {
    /// `mutation CreatePost`, or `query { listPosts }` for an unnamed operation.
    package var description: String
    /// `createPost`: the root fields, a label of bounded variety.
    package var rootFields: String

    package init(description: String, rootFields: String) {
        self.description = description
        self.rootFields = rootFields
    }
}
