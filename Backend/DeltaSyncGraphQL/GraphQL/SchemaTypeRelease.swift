import GraphQL

/// Ends a built schema's types when the schema's owner (``ExecutableSchema``) goes.
///
/// A schema's types name each other (a post its blog, the blog its posts), and each type keeps
/// its fields: the library caches their definitions, resolvers included, on the type, and
/// ``GraphQLLibraryHooks`` fixes them in a closure on the type. So once a schema is set up and
/// has executed, its types hold each other in a cycle no reference count ends, and with them
/// every resolver, the store the resolvers write and its connections and threads. When this
/// value goes, it empties each of the schema's own types' fields, which drops the library's
/// caches and the hooks' closures and ends the cycle. The introspection types (`__Type`,
/// `__Field`, ...) are left alone: the library shares them between all schemas.
///
/// `@unchecked Sendable`: the types are read only in `deinit`, when nothing uses the schema.
final class SchemaTypeRelease: @unchecked Sendable {
    private let types: [any GraphQLNamedType]

    init(_ schema: GraphQLSchema) {
        types = schema.typeMap.values.filter { !$0.name.hasPrefix("__") }
    }

    deinit {
        for type in types {
            switch type {
            case let object as GraphQLObjectType: object.fields = { [:] }
            case let interface as GraphQLInterfaceType: interface.fields = { [:] }
            case let input as GraphQLInputObjectType: input.fields = { [:] }
            default: break
            }
        }
    }
}
