import DeltaSyncCore
import DeltaSyncSchema
import GraphQL

/// The AppSync schema of an Amplify schema, built with the GraphQL library and wired to
/// DeltaSync's resolvers.
///
/// The SDL is the very text `deltasync schema print` shows, so what clients introspect and
/// what the server executes cannot drift apart.
package struct ExecutableSchema: Sendable {
    package let graphQL: GraphQLSchema
    /// Ends `graphQL`'s type cycles, and with them the resolvers and the store, when the last
    /// copy of this value goes.
    private let release: SchemaTypeRelease
    package let sdl: String
    /// Plans projections; ``ItemPlanner/projection(for:)`` binds one to a request's caller.
    let planner: ItemPlanner
    /// Each subscription field's triggering mutations, from `@aws_subscribe(mutations:)`.
    package let subscriptionTriggers: [String: [String]]
    /// The project's resolvers of subscription fields, run when a subscription starts.
    let subscriptionResolvers: SubscriptionResolvers
    /// The generated create, update and delete mutations, by field name.
    let modelMutations: [String: ModelMutation]
    /// Whether any field runs a function or an HTTP call, whose event or request carries the
    /// client's headers: without one, the transport need not collect them.
    package let readsRequestHeaders: Bool
    /// How large a filter or condition may be (the resolvers' ``ResolverEnvironment/filterLimits``).
    let filterLimits: FilterLimits
    /// The generated queries by field name, and what their values are.
    private let queryFields: [String: RootField]

    /// What a generated root field returns, for ``ResponsePlan``.
    enum RootField: Sendable {
        /// A model's connection: list, index and sync queries.
        case page(ModelSchema)
        /// A nullable object of a model: `get` queries and mutations.
        case object(ModelSchema)
    }

    /// The generated root field `name` of an operation of type `operation`.
    func rootField(_ name: String, of operation: OperationType) -> RootField? {
        switch operation {
        case .query: return queryFields[name]
        case .mutation: return modelMutations[name].map { .object($0.model) }
        case .subscription: return nil
        }
    }

    /// A generated mutation of a model, callable without the executor.
    struct ModelMutation: Sendable {
        typealias Run = @Sendable (_ args: Map, _ field: MutationField, _ access: RootAccess) async throws -> ModelObject
        let model: ModelSchema
        /// `.create`, `.update` or `.delete`.
        let operation: ModelOperation
        let run: Run
    }

    /// Builds the schema and attaches the resolvers each kind of field has
    /// (``ModelQueryFields``, ``ModelMutationFields``, ``RelationFields``,
    /// ``CustomOperationFields``, ``FunctionFields``); every one of them gets its caller
    /// through ``ScopedResolver``. Model fields ask the caller before they are read
    /// (``FieldReadGuard``).
    package init(schema: AmplifySchema, environment: ResolverEnvironment) throws {
        sdl = schema.appSyncSDL(authModes: environment.policy.directives.modes)
        filterLimits = environment.filterLimits
        graphQL = try buildSchema(source: sdl)
        release = SchemaTypeRelease(graphQL)
        subscriptionTriggers = try Self.subscriptionTriggers(sdl)
        AWSScalars.install(in: graphQL)
        BuiltInScalars.install(in: graphQL)
        try GraphQLLibraryHooks.freezeInputFields(graphQL)
        let queries = QueryResolvers(environment: environment)
        let syncs = SyncResolvers(environment: environment)
        let planner = ItemPlanner(schema: schema, relations: queries, logger: environment.logger)
        let mutations = MutationResolvers(environment: environment, planner: planner)
        let maxPage = environment.maxPageSize
        self.planner = planner

        // Fields of models and other types resolved by functions; attached before the model
        // fields' read guard wraps them.
        for (typeName, resolvers) in FunctionFields.resolvers(of: schema, environment: environment) {
            guard let type = graphQL.getType(name: typeName) as? GraphQLObjectType else { continue }
            try GraphQLLibraryHooks.attach(resolvers, to: type)
        }
        // The project's own resolvers replace what is generated for their fields; root fields
        // are merged below, after the generated ones.
        let projectResolvers = ResolverFields.resolvers(of: schema, environment: environment)
        for coordinate in environment.fieldResolvers.keys {
            guard let type = graphQL.getType(name: coordinate.type) as? GraphQLObjectType, try type.fields()[coordinate.field] != nil else {
                throw AppSyncError(.badRequest, "A resolver is attached to \(coordinate), which is not a field of the schema.")
            }
        }
        for (typeName, resolvers) in projectResolvers where !["Query", "Mutation", "Subscription"].contains(typeName) {
            guard let type = graphQL.getType(name: typeName) as? GraphQLObjectType else { continue }
            try GraphQLLibraryHooks.attach(resolvers, to: type)
        }
        var queryResolvers: [String: GraphQLFieldResolve] = [:]
        var mutationResolvers: [String: GraphQLFieldResolve] = [:]
        var modelMutations: [String: ModelMutation] = [:]
        var queryFields: [String: RootField] = [:]
        for model in schema.models {
            let queryFieldsOfModel = ModelQueryFields(model, queries: queries, syncs: syncs, maxPage: maxPage)
            queryResolvers.merge(queryFieldsOfModel.resolvers) { first, _ in first }
            queryFields.merge(queryFieldsOfModel.roots) { first, _ in first }
            let mutationFields = ModelMutationFields(model, mutations: mutations)
            mutationResolvers.merge(mutationFields.resolvers) { first, _ in first }
            modelMutations.merge(mutationFields.mutations) { first, _ in first }
            guard let type = graphQL.getType(name: model.name) as? GraphQLObjectType else { continue }
            let relations = RelationFields.resolvers(of: model, queries: queries, maxPage: maxPage)
            try GraphQLLibraryHooks.attach(relations.filter { projectResolvers[model.name]?[$0.key] == nil }, to: type)
            // Without rules no field can be denied: the executor reads fields unguarded.
            if !environment.policy.isOpen { try FieldReadGuard.install(on: type, ownerNames: model.compositeOwnerFields) }
        }
        let custom = CustomOperationFields.resolvers(of: schema, environment: environment)
        queryResolvers.merge(custom[.query] ?? [:]) { _, custom in custom }
        mutationResolvers.merge(custom[.mutation] ?? [:]) { _, custom in custom }
        queryResolvers.merge(projectResolvers["Query"] ?? [:]) { _, project in project }
        mutationResolvers.merge(projectResolvers["Mutation"] ?? [:]) { _, project in project }
        let slotted = try Self.slotted(
            environment, steps: GeneratedDataSteps(environment: environment, queries: queries, syncs: syncs, mutations: mutations))
        queryResolvers.merge(slotted.query) { _, slotted in slotted }
        mutationResolvers.merge(slotted.mutation) { _, slotted in slotted }
        subscriptionResolvers = slotted.subscriptions
        // A field the project resolves is no longer a generated one: no shortcut, no projection.
        for coordinate in Array(environment.fieldResolvers.keys) + environment.slotPlans.keys {
            if coordinate.type == "Query" { queryFields[coordinate.field] = nil }
            if coordinate.type == "Mutation" { modelMutations[coordinate.field] = nil }
        }
        self.modelMutations = modelMutations
        readsRequestHeaders = !schema.functionFields.isEmpty || schema.customOperations.contains { !$0.functions.isEmpty || $0.http != nil }
        self.queryFields = queryFields
        if let query = graphQL.queryType { try GraphQLLibraryHooks.attach(queryResolvers, to: query) }
        if let mutation = graphQL.mutationType { try GraphQLLibraryHooks.attach(mutationResolvers, to: mutation) }
    }

    private static func subscriptionTriggers(_ sdl: String) throws -> [String: [String]] {
        var triggers: [String: [String]] = [:]
        let document = try parse(source: Source(body: sdl, name: "AppSync schema"))
        for case let type as ObjectTypeDefinition in document.definitions where type.name.value == "Subscription" {
            for field in type.fields {
                let mutations = field.directives.first { $0.name.value == "aws_subscribe" }?
                    .arguments.first { $0.name.value == "mutations" }?.value as? ListValue
                triggers[field.name.value] = mutations?.values.compactMap { ($0 as? StringValue)?.value } ?? []
            }
        }
        return triggers
    }
}
