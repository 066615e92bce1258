import DeltaSyncCore
import GraphQL

/// A field resolver that gets its request's ``RequestScope`` (and through it the caller)
/// instead of the library's untyped context.
typealias ScopedResolve = @Sendable (
    _ source: any Sendable, _ args: Map, _ scope: RequestScope, _ info: GraphQLResolveInfo
) async throws -> (any Sendable)?

/// The one adapter between the library's resolvers and DeltaSync's: every resolver the schema
/// attaches is made here, so each one has its request's caller or throws
/// (``RequestScope/of(_:)``), and counts against the request's budget before it reads anything.
/// An ``AppSyncError`` it throws leaves placed in the document (``RequestScope/located(_:_:)``).
enum ScopedResolver {
    static func make(_ resolve: @escaping ScopedResolve) -> GraphQLFieldResolve {
        { source, args, context, info in
            let scope = try RequestScope.of(context)
            do {
                try scope.budget.spendResolver()
                return try await resolve(source, args, scope, info)
            } catch let error as AppSyncError {
                throw scope.located(error, info)
            }
        }
    }
}
