import DeltaSyncCore
import DeltaSyncSchema
import GraphQL

/// The resolvers of the schema's own queries and mutations: an `@http` call or a `@function`
/// pipeline, each refused to a caller whose mode the field does not admit
/// (``Caller/admits(_:)``: its mode directives, else the default mode alone).
enum CustomOperationFields {
    /// Resolvers by parent (`Query`, `Mutation`) and field name.
    static func resolvers(of schema: AmplifySchema, environment: ResolverEnvironment) -> [CustomOperation.Parent: [String: GraphQLFieldResolve]] {
        var resolvers: [CustomOperation.Parent: [String: GraphQLFieldResolve]] = [:]
        for operation in schema.customOperations {
            let resolve: ScopedResolve
            if let call = operation.http {
                let http = HTTPResolver(
                    call: call, environmentName: environment.environmentName, region: environment.region, timeout: .seconds(30))
                resolve = { _, args, scope, _ in
                    try await http.resolve(arguments: JSONValue(args), headers: scope.functionRequest.headers).resolvable
                }
            } else if !operation.functions.isEmpty {
                resolve = FunctionFields.resolve(FunctionPipeline(
                    typeName: operation.parent.rawValue, fieldName: operation.name, calls: operation.functions,
                    directory: environment.functions, logger: environment.logger))
            } else {
                continue
            }
            resolvers[operation.parent, default: [:]][operation.name] = ScopedResolver.make { source, args, scope, info in
                guard scope.caller.admits(operation) else { throw AppSyncError.fieldUnauthorized(info.fieldName, on: info.parentType.name) }
                return try await resolve(source, args, scope, info)
            }
        }
        return resolvers
    }
}
