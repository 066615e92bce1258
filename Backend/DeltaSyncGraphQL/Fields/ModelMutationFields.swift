import DeltaSyncSchema
import GraphQL

/// The resolvers of a model's generated `create`, `update` and `delete` mutations, and the
/// same mutations callable without the executor (``MutationShortcut``).
struct ModelMutationFields {
    /// Resolvers by field name.
    private(set) var resolvers: [String: GraphQLFieldResolve] = [:]
    /// The mutations by field name.
    private(set) var mutations: [String: ExecutableSchema.ModelMutation] = [:]

    init(_ model: ModelSchema, mutations resolving: MutationResolvers) {
        let ops = model.operations
        let runs: [(String?, ModelOperation, ExecutableSchema.ModelMutation.Run)] = [
            (ops.create, .create, { args, field, access in try await resolving.create(model, args: args, field: field, access: access) }),
            (ops.update, .update, { args, field, access in try await resolving.update(model, args: args, field: field, access: access) }),
            (ops.delete, .delete, { args, field, access in try await resolving.delete(model, args: args, field: field, access: access) }),
        ]
        for case (let name?, let operation, let run) in runs {
            mutations[name] = ExecutableSchema.ModelMutation(model: model, operation: operation, run: run)
            resolvers[name] = ScopedResolver.make { _, args, scope, info in
                try await RootCompletion.mutationResult(operation, of: model, scope: scope, info: info) {
                    try await run(args, MutationField(info), scope.access(model, operation, info))
                }
            }
        }
    }
}
