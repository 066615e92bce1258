import DeltaSyncCore
import DeltaSyncSchema
import GraphQL

/// The resolvers of the schema's own queries and mutations: an `@http` call or a `@function`
/// pipeline (``FieldResolver``), each refused to a caller whose mode the field does not admit
/// (``Caller/admits(_:)``: its mode directives, else the default mode alone).
enum CustomOperationFields {
    /// Resolvers by parent (`Query`, `Mutation`) and field name.
    static func resolvers(of schema: AmplifySchema, environment: ResolverEnvironment) -> [CustomOperation.Parent: [String: GraphQLFieldResolve]] {
        var resolvers: [CustomOperation.Parent: [String: GraphQLFieldResolve]] = [:]
        for operation in schema.customOperations {
            let resolver: FieldResolver
            if let call = operation.http {
                resolver = .unit(HTTPResolver(
                    call: call, environmentName: environment.environmentName, region: environment.region, timeout: .seconds(30)))
            } else if !operation.functions.isEmpty {
                resolver = FunctionFields.pipeline(operation.functions, environment: environment)
            } else {
                continue
            }
            let resolve = ResolverFields.resolve(resolver, environment: environment)
            resolvers[operation.parent, default: [:]][operation.name] = ScopedResolver.make { source, args, scope, info in
                guard scope.caller.admits(operation) else { throw AppSyncError.fieldUnauthorized(info.fieldName, on: info.parentType.name) }
                return try await resolve(source, args, scope, info)
            }
        }
        return resolvers
    }
}
