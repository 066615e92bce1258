import DeltaSyncCore
import DeltaSyncSchema
import GraphQL

/// Fields answered by a `@function` pipeline: the event carries the field's arguments, the
/// parent object as `source` (`null` on root fields), the caller and their headers.
enum FunctionFields {
    /// The resolvers of the schema's `@function` fields on object types, by type name.
    static func resolvers(of schema: AmplifySchema, environment: ResolverEnvironment) -> [String: [String: GraphQLFieldResolve]] {
        var resolvers: [String: [String: GraphQLFieldResolve]] = [:]
        for field in schema.functionFields {
            let pipeline = FunctionPipeline(
                typeName: field.typeName, fieldName: field.fieldName, calls: field.functions, directory: environment.functions,
                logger: environment.logger)
            resolvers[field.typeName, default: [:]][field.fieldName] = ScopedResolver.make(resolve(pipeline))
        }
        return resolvers
    }

    /// A field answered by `pipeline`.
    static func resolve(_ pipeline: FunctionPipeline) -> ScopedResolve {
        { source, args, scope, _ in
            try await pipeline.resolve(arguments: JSONValue(args), source: sourceValue(source), request: scope.functionRequest).resolvable
        }
    }

    /// A parent object as the event's `source`: a stored item (one the caller reached, so one
    /// they may read) or a value inside one.
    private static func sourceValue(_ source: Any) -> JSONValue {
        switch source {
        case let object as ItemObject: return .object(object.item)
        case let object as StoredObject: return .object(object.fields)
        default: return .null
        }
    }
}
