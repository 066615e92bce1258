import DeltaSyncCore
import DeltaSyncSchema
import GraphQL

/// Fields resolved through AppSync's resolver model (``FieldResolver``): the project's unit and
/// pipeline resolvers, `@function` pipelines and `@http` calls. Each run gets a fresh
/// ``ResolverContext`` of the request, and its value is completed as the field's type says
/// (``ResolvedValue``), so model objects keep their field rules.
enum ResolverFields {
    /// The embedder's resolvers (``ResolverEnvironment/fieldResolvers``), by type name.
    static func resolvers(of schema: AmplifySchema, environment: ResolverEnvironment) -> [String: [String: GraphQLFieldResolve]] {
        var resolvers: [String: [String: GraphQLFieldResolve]] = [:]
        for (coordinate, resolver) in environment.fieldResolvers {
            resolvers[coordinate.type, default: [:]][coordinate.field] = ScopedResolver.make(resolve(resolver, environment: environment))
        }
        return resolvers
    }

    /// A field answered by `resolver`; errors its steps appended are reported beside its value.
    static func resolve(_ resolver: FieldResolver, environment: ResolverEnvironment) -> ScopedResolve {
        { source, args, scope, info in
            var context = ResolverContext(arguments: args, source: source, scope: scope, info: info, environment: environment)
            let value: JSONValue
            do {
                value = try await resolver.resolve(&context)
                scope.record(context.trace)
            } catch let error as AppSyncError {
                scope.record(context.trace)
                var shown = error
                let readable = ResolvedValue(schema: environment.schema, caller: scope.caller, field: context.field)
                    .readableData(error.data, as: info.returnType)
                shown.data = ErrorDataSelection.filter(readable, info: info)
                throw shown
            }
            if !context.appendedErrors.isEmpty { scope.append(context.appendedErrors, info: info) }
            return try ResolvedValue(schema: environment.schema, caller: scope.caller, field: context.field).resolvable(value, as: info.returnType)
        }
    }
}
