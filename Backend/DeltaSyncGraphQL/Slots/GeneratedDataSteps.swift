import DeltaSyncCore
import DeltaSyncSchema
import GraphQL

/// The bodies of DeltaSync's generated data steps (``GeneratedDataStep``): the generated
/// resolvers' reads and writes, with the caller checked as those resolvers check it, their
/// values as JSON for the slots after them.
struct GeneratedDataSteps: Sendable {
    let environment: ResolverEnvironment
    let queries: QueryResolvers
    let syncs: SyncResolvers
    let mutations: MutationResolvers

    /// The step of the generated field `name`.
    func step(_ field: GeneratedField, name: String) -> GeneratedDataStep {
        // Amplify's name for the function: `QuerygetTodoDataResolverFn`.
        let type: String
        switch field.kind {
        case .query: type = "Query"
        case .mutation: type = "Mutation"
        case .subscription: type = "Subscription"
        }
        var step = GeneratedDataStep(name: "\(type)\(name)DataResolverFn", body: body(field, name: name), logger: environment.logger)
        step.readsNothing = field.kind == .subscription
        return step
    }

    private func body(_ field: GeneratedField, name: String) -> GeneratedDataStep.Body {
        let model = field.model, operation = field.operation, maxPage = environment.maxPageSize
        let queries = queries, syncs = syncs, mutations = mutations, environment = environment
        switch field.step {
        case .get:
            return { arguments, stash, origin in
                let access = origin.scope.access(model, .get, origin.info)
                try access.require()
                guard let found = try await queries.get(model, args: stash.argumentMap(arguments, for: .item)) else { return .null }
                try access.require(found.item)
                if let filter = stash.authFilter, try !environment.predicate(filter).matches(found.item) { throw access.denial }
                return .object(found.item)
            }
        case .list:
            return page(model, .list, maxPage) { args, _, access, _ in
                try await queries.list(model, args: args, queryName: name, access: access)
            }
        case .index(let index):
            return page(model, .list, maxPage) { args, _, access, _ in
                try await queries.indexQuery(model, index: index, args: args, queryName: name, access: access)
            }
        case .sync:
            return page(model, .sync, maxPage) { args, origin, access, ttl in
                try await syncs.sync(
                    model, args: args, info: origin.info, plans: origin.scope.plans, access: access, writer: nil, deltaTTLMilliseconds: ttl)
            }
        case .create, .update, .delete:
            let run: @Sendable (Map, MutationField, RootAccess) async throws -> ModelObject
            switch field.step {
            case .create: run = { try await mutations.create(model, args: $0, field: $1, access: $2) }
            case .update: run = { try await mutations.update(model, args: $0, field: $1, access: $2) }
            default: run = { try await mutations.delete(model, args: $0, field: $1, access: $2) }
            }
            let isVersioned = environment.schema.isVersioned
            return { arguments, stash, origin in
                let (scope, info) = (origin.scope, origin.info)
                let result = try await run(stash.argumentMap(arguments, for: .write), MutationField(info), scope.access(model, operation, info))
                if !isVersioned { scope.keepWritten(result, info: info) }
                guard scope.caller.mayReadResult(of: operation, result.item, model: model) else {
                    await scope.withhold(result.item, model: model, info: info)
                    return .null
                }
                return .object(result.item)
            }
        case .subscribe:
            // A subscription's generated step is Amplify's `NONE` function: it answers `null`.
            return { _, _, _ in .null }
        }
    }

    /// A list, index or sync query's body: the page's items reserved in the request's budget.
    private func page(
        _ model: ModelSchema, _ operation: ModelOperation, _ maxPage: Int,
        _ read: @escaping @Sendable (_ args: Map, _ origin: FieldOrigin, _ access: RootAccess, _ deltaTTL: Int?) async throws -> PageObject
    ) -> GeneratedDataStep.Body {
        { arguments, stash, origin in
            let args = stash.argumentMap(arguments, for: .page)
            let access = origin.scope.access(model, operation, origin.info)
            let page = try await RootCompletion.budgeted(args, scope: origin.scope, maxPage: maxPage) {
                try await read(args, origin, access, stash.deltaTTLMilliseconds)
            }
            return page.json
        }
    }
}
