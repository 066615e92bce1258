import GraphQL

extension ExecutableSchema {
    /// The root fields the project's slots and subscription resolvers change: generated
    /// queries and mutations with slots, as pipelines around their data step (`query`,
    /// `mutation`), and subscription fields' resolvers, run when a subscription starts.
    static func slotted(
        _ environment: ResolverEnvironment, steps: GeneratedDataSteps
    ) throws -> (query: [String: GraphQLFieldResolve], mutation: [String: GraphQLFieldResolve], subscriptions: SubscriptionResolvers) {
        var query: [String: GraphQLFieldResolve] = [:]
        var mutation: [String: GraphQLFieldResolve] = [:]
        var subscriptions: [String: FieldResolver] = [:]
        for (coordinate, resolver) in environment.fieldResolvers where coordinate.type == "Subscription" {
            subscriptions[coordinate.field] = resolver
        }
        for (coordinate, plan) in environment.slotPlans {
            let resolver = try plan.resolver(generated: steps.step(plan.field, name: coordinate.field))
            let resolve = ScopedResolver.make(ResolverFields.resolve(resolver, environment: environment))
            switch coordinate.type {
            case "Query": query[coordinate.field] = resolve
            case "Mutation": mutation[coordinate.field] = resolve
            default: subscriptions[coordinate.field] = resolver
            }
        }
        let resolvers = SubscriptionResolvers(
            resolvers: subscriptions, variables: environment.resolverVariables, logger: environment.logger, clock: environment.clock)
        return (query, mutation, resolvers)
    }
}
