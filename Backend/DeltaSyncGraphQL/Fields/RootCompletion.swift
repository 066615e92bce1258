import DeltaSyncSchema
import GraphQL

/// How a root field's value reaches the response: items projection writes while the store
/// reads them (``ResponsePlan``'s decisions), a mutation's earlier outcome, and the items a
/// page reserves in the request's ``ResolverBudget``.
enum RootCompletion {
    /// A root connection field: when the request's plan projects its items, the resolver gets
    /// a writer for them and the page is set aside for the response.
    static func connection(
        args: Map, maxPage: Int, scope: RequestScope, info: GraphQLResolveInfo,
        resolve: (ItemProjection.ItemArrayWriter?) async throws -> PageObject
    ) async throws -> PageObject {
        guard let (key, root) = scope.root(info), case .page(let page) = root else {
            return try await budgeted(args, scope: scope, maxPage: maxPage) { try await resolve(nil) }
        }
        var connection = try await budgeted(args, scope: scope, maxPage: maxPage) {
            try await resolve(scope.projection.writer(for: page.items))
        }
        switch connection.items {
        case .projected(let array):
            scope.projected.page(key, plan: page, items: .projected(array))
        case .objects(let objects):
            scope.projected.page(key, plan: page, items: .stored(objects.map(\.item)))
        }
        connection.items = .objects([])
        return connection
    }

    /// Reads a page with the items it may return reserved in the request's ``ResolverBudget``
    /// first, and what it did not use given back.
    static func budgeted(_ args: Map, scope: RequestScope, maxPage: Int, _ read: () async throws -> PageObject) async throws -> PageObject {
        let budget = scope.budget
        let reserved = min(max(args.argument("limit")?.intValue ?? QueryResolvers.defaultLimit, 0), maxPage)
        try budget.reserveItems(reserved)
        let connection: PageObject
        do {
            connection = try await read()
        } catch {
            budget.settleItems(reserved: reserved, used: 0)
            throw error
        }
        budget.settleItems(reserved: reserved, used: connection.count)
        return connection
    }

    /// A root mutation field: the mutation's outcome (``MutationShortcut``'s when it ran the
    /// mutation already), completed by ``completed(_:scope:info:)``; `null` when the caller
    /// may not read it (``Caller/mayReadResult(of:_:model:)``), kept for its event.
    static func mutationResult(
        _ operation: ModelOperation, of model: ModelSchema, scope: RequestScope, info: GraphQLResolveInfo,
        resolve: () async throws -> ModelObject
    ) async throws -> ModelObject? {
        let result: ModelObject
        if let earlier = scope.earlierResult(info) {
            result = try earlier.get()
        } else {
            result = try await resolve()
        }
        // A plain API's clients select no metadata, but a versioned API's DataStore clients on
        // the same store (another server, one per shape) need it in the event.
        if !scope.projection.planner.schema.isVersioned { scope.keepWritten(result, info: info) }
        guard scope.caller.mayReadResult(of: operation, result.item, model: model) else {
            await scope.withhold(result.item, model: model, info: info)
            return nil
        }
        return completed(result, scope: scope, info: info)
    }

    /// `result` for the executor to complete, or `nil` once it is completed here: when the
    /// request's plan says so (``ResponsePlan/Root/object(_:)``) and every field has a value.
    /// The executor then sees `null`, and ``RequestExecutor`` puts the result in its place.
    static func completed(_ result: ModelObject, scope: RequestScope, info: GraphQLResolveInfo) -> ModelObject? {
        guard let (key, root) = scope.root(info), case .object(let plan) = root,
            let completed = scope.projection.object(result.item, plan: plan)
        else { return result }
        scope.projected.object(key, completed)
        return nil
    }
}
