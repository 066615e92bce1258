import DeltaSyncCore
import DeltaSyncSchema
import GraphQL

/// Fields answered by a `@function` pipeline: each function is called directly
/// (``DirectLambdaFunction``), its event carrying the field's arguments, the parent object as
/// `source` (`null` on root fields), the caller, their headers and the previous function's
/// result.
enum FunctionFields {
    /// The resolvers of the schema's `@function` fields on object types, by type name.
    static func resolvers(of schema: AmplifySchema, environment: ResolverEnvironment) -> [String: [String: GraphQLFieldResolve]] {
        var resolvers: [String: [String: GraphQLFieldResolve]] = [:]
        for field in schema.functionFields {
            let resolver = pipeline(field.functions, environment: environment)
            resolvers[field.typeName, default: [:]][field.fieldName] = ScopedResolver.make(ResolverFields.resolve(resolver, environment: environment))
        }
        return resolvers
    }

    /// The pipeline of a field's `@function` directives, in their order.
    static func pipeline(_ calls: [CustomOperation.FunctionCall], environment: ResolverEnvironment) -> FieldResolver {
        .pipeline(FieldResolver.Pipeline(
            before: nil,
            functions: calls.map { call in
                DirectLambdaFunction(
                    dataSource: LambdaDataSource(functionName: call.name, directory: environment.functions, logger: environment.logger),
                    isEvent: call.isEvent)
            },
            after: nil))
    }
}
