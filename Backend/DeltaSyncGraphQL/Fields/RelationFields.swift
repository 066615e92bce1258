import DeltaSyncSchema
import GraphQL

/// The resolvers of a model's relation fields (`@hasMany`, `@hasOne`, `@belongsTo`,
/// `@manyToMany`), each reading the related model with its rules for the request's caller
/// (``Caller/related(_:field:parentType:)``): a connection holds the related items the caller
/// may read, a related object they may not read is `null` with the field's error.
enum RelationFields {
    static func resolvers(of model: ModelSchema, queries: QueryResolvers, maxPage: Int) -> [String: GraphQLFieldResolve] {
        var resolvers: [String: GraphQLFieldResolve] = [:]
        for field in model.relationFields {
            guard let relation = field.relation else { continue }
            let related = queries.environment.model(relation.relatedModel)
            let queryName = "\(model.name).\(field.name)"
            if relation.isConnection {
                resolvers[field.name] = ScopedResolver.make { source, args, scope, info in
                    guard let parent = source as? ModelObject else { return nil }
                    let access = scope.caller.related(related, field: info.fieldName, parentType: info.parentType.name)
                    var connection = try await RootCompletion.budgeted(args, scope: scope, maxPage: maxPage) {
                        try await queries.connection(
                            from: parent.item, relation: relation, args: args, queryName: queryName, access: access, caller: scope.caller)
                    }
                    if let page = scope.nestedPage(info, model: related), case .objects(let objects) = connection.items {
                        scope.projected.page(at: info.path.elements.map(\.indexPathValue), plan: page, items: .stored(objects.map(\.item)))
                        connection.items = .objects([])
                    }
                    return connection
                }
            } else {
                resolvers[field.name] = ScopedResolver.make { source, _, scope, info in
                    guard let child = source as? ModelObject else { return nil }
                    let access = scope.caller.related(related, field: info.fieldName, parentType: info.parentType.name)
                    return try await queries.object(from: child.item, relation: relation, access: access, reads: scope.relatedReads)
                }
            }
        }
        return resolvers
    }
}
