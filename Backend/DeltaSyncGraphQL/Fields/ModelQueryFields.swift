import DeltaSyncSchema
import GraphQL

/// The resolvers of a model's generated queries: `get`, `list`, `sync` and each `@index`'s
/// query field, every one reading with the request's caller.
struct ModelQueryFields {
    /// Resolvers by field name.
    private(set) var resolvers: [String: GraphQLFieldResolve] = [:]
    /// What each field returns, for ``ResponsePlan``.
    private(set) var roots: [String: ExecutableSchema.RootField] = [:]

    init(_ model: ModelSchema, queries: QueryResolvers, syncs: SyncResolvers, maxPage: Int) {
        let ops = model.operations
        if let name = ops.get {
            roots[name] = .object(model)
            resolvers[name] = ScopedResolver.make { _, args, scope, info in
                let access = scope.access(model, .get, info)
                try access.require()
                guard let found = try await queries.get(model, args: args) else { return nil }
                try access.require(found.item)
                return RootCompletion.completed(found, scope: scope, info: info)
            }
        }
        if let name = ops.list {
            roots[name] = .page(model)
            resolvers[name] = ScopedResolver.make { _, args, scope, info in
                try await RootCompletion.connection(args: args, maxPage: maxPage, scope: scope, info: info) { writer in
                    try await queries.list(model, args: args, queryName: name, access: scope.access(model, .list, info), writer: writer)
                }
            }
        }
        if let name = ops.sync {
            roots[name] = .page(model)
            resolvers[name] = ScopedResolver.make { _, args, scope, info in
                try await RootCompletion.connection(args: args, maxPage: maxPage, scope: scope, info: info) { writer in
                    try await syncs.sync(
                        model, args: args, info: info, plans: scope.plans, access: scope.access(model, .sync, info), writer: writer)
                }
            }
        }
        for index in model.indexes {
            guard let name = index.queryField else { continue }
            roots[name] = .page(model)
            resolvers[name] = ScopedResolver.make { _, args, scope, info in
                try await RootCompletion.connection(args: args, maxPage: maxPage, scope: scope, info: info) { writer in
                    try await queries.indexQuery(
                        model, index: index, args: args, queryName: name, access: scope.access(model, .list, info), writer: writer)
                }
            }
        }
    }
}
