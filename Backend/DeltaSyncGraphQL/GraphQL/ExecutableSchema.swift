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
    package let sdl: String
    let projection: ItemProjection
    /// Each subscription field's triggering mutations, from `@aws_subscribe(mutations:)`.
    package let subscriptionTriggers: [String: [String]]
    /// The generated create, update and delete mutations, by field name.
    let modelMutations: [String: ModelMutation]
    /// Whether any field runs a function or an HTTP call, whose event or request carries the
    /// client's headers: without one, the transport need not collect them.
    package let readsRequestHeaders: Bool
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
        let model: ModelSchema
        /// `.create`, `.update` or `.delete`.
        let operation: ModelOperation
        let run: @Sendable (_ args: Map, _ field: MutationField, _ access: RootAccess) async throws -> ItemObject
    }

    package init(schema: AmplifySchema, environment: ResolverEnvironment) throws {
        sdl = schema.appSyncSDL(authModes: environment.policy?.directives.modes ?? APIAuthModes())
        graphQL = try buildSchema(source: sdl)
        subscriptionTriggers = try Self.subscriptionTriggers(sdl)
        AWSScalars.install(in: graphQL)
        BuiltInScalars.install(in: graphQL)
        try GraphQLLibraryHooks.freezeInputFields(graphQL)
        let queries = QueryResolvers(environment: environment)
        let syncs = SyncResolvers(environment: environment)
        let mutations = MutationResolvers(environment: environment, queries: queries)
        let projection = ItemProjection(schema: schema, queries: queries)
        let maxPage = environment.maxPageSize
        self.projection = projection

        var queryResolvers: [String: GraphQLFieldResolve] = [:]
        var mutationResolvers: [String: GraphQLFieldResolve] = [:]
        var modelMutations: [String: ModelMutation] = [:]
        var queryFields: [String: RootField] = [:]
        // Fields of models and other types resolved by functions; attached before the model
        // fields' authorization wraps them.
        for field in schema.functionFields {
            guard let type = graphQL.getType(name: field.typeName) as? GraphQLObjectType else { continue }
            let pipeline = FunctionPipeline(
                typeName: field.typeName, fieldName: field.fieldName, calls: field.functions, directory: environment.functions,
                logger: environment.logger)
            try Self.attach([field.fieldName: Self.functionResolver(pipeline)], to: type)
        }
        for model in schema.models {
            let ops = model.operations
            if let name = ops.get {
                queryFields[name] = .object(model)
                queryResolvers[name] = { _, args, context, info in
                    let access = Self.access(model, .get, context, info)
                    try access.require()
                    guard let found = try await queries.get(model, args: args) else { return nil }
                    try access.require(found.item)
                    return Self.completed(found, context: context, info: info, projection: projection)
                }
            }
            if let name = ops.list {
                queryFields[name] = .page(model)
                queryResolvers[name] = { _, args, context, info in
                    try await Self.connection(model, args: args, maxPage: maxPage, context: context, info: info, projection: projection) { writer in
                        try await queries.list(
                            model, args: args, queryName: name, access: Self.access(model, .list, context, info), writer: writer)
                    }
                }
            }
            if let name = ops.sync {
                queryFields[name] = .page(model)
                queryResolvers[name] = { _, args, context, info in
                    try await Self.connection(model, args: args, maxPage: maxPage, context: context, info: info, projection: projection) { writer in
                        try await syncs.sync(
                            model, args: args, info: info, plans: (context as? RequestScope)?.plans,
                            access: Self.access(model, .sync, context, info), writer: writer)
                    }
                }
            }
            for index in model.indexes {
                guard let name = index.queryField else { continue }
                queryFields[name] = .page(model)
                queryResolvers[name] = { _, args, context, info in
                    try await Self.connection(model, args: args, maxPage: maxPage, context: context, info: info, projection: projection) { writer in
                        try await queries.indexQuery(
                            model, index: index, args: args, queryName: name, access: Self.access(model, .list, context, info),
                            writer: writer)
                    }
                }
            }
            let runs: [(String?, ModelOperation, @Sendable (Map, MutationField, RootAccess) async throws -> ItemObject)] = [
                (ops.create, .create, { args, field, access in try await mutations.create(model, args: args, field: field, access: access) }),
                (ops.update, .update, { args, field, access in try await mutations.update(model, args: args, field: field, access: access) }),
                (ops.delete, .delete, { args, field, access in try await mutations.delete(model, args: args, field: field, access: access) }),
            ]
            for case (let name?, let operation, let run) in runs {
                modelMutations[name] = ModelMutation(model: model, operation: operation, run: run)
                mutationResolvers[name] = { _, args, context, info in
                    try await Self.mutationResult(context: context, info: info, projection: projection) {
                        try await run(args, MutationField(info), Self.access(model, operation, context, info))
                    }
                }
            }
            if let type = graphQL.getType(name: model.name) as? GraphQLObjectType {
                var relationResolvers: [String: GraphQLFieldResolve] = [:]
                for field in model.relationFields {
                    guard let relation = field.relation else { continue }
                    let queryName = "\(model.name).\(field.name)"
                    if relation.isConnection {
                        relationResolvers[field.name] = { source, args, context, _ in
                            guard let parent = source as? ItemObject else { return nil }
                            return try await Self.budgeted(args, context: context, maxPage: maxPage) {
                                try await queries.connection(from: parent.item, relation: relation, args: args, queryName: queryName)
                            }
                        }
                    } else {
                        relationResolvers[field.name] = { source, _, _, _ in
                            guard let child = source as? ItemObject else { return nil }
                            return try await queries.object(from: child.item, relation: relation)
                        }
                    }
                }
                try Self.attach(relationResolvers, to: type)
                if environment.fieldAuthorization != nil || environment.policy?.isOpen == false { try Self.authorize(type, ownerNames: model.compositeOwnerFields) }
            }
        }
        // Fields the schema resolves with its own functions.
        for operation in schema.customOperations {
            var resolve: GraphQLFieldResolve
            if let call = operation.http {
                let http = HTTPResolver(call: call, environmentName: environment.environmentName, region: environment.region, timeout: .seconds(30))
                resolve = { _, args, context, _ in
                    try await http.resolve(arguments: JSONValue(args), headers: (context as? RequestScope)?.functionRequest.headers ?? [:]).resolvable
                }
            } else if !operation.functions.isEmpty {
                resolve = Self.functionResolver(FunctionPipeline(
                    typeName: operation.parent.rawValue, fieldName: operation.name, calls: operation.functions,
                    directory: environment.functions, logger: environment.logger))
            } else {
                continue
            }
            if let directives = environment.policy?.directives {
                // AppSync admits the field's mode directives, else the default mode alone.
                let modes = operation.modeDirectives, resolveAdmitted = resolve
                resolve = { source, args, context, info in
                    if let mode = (context as? RequestScope)?.caller?.identity.mode, !directives.admits(modes, mode) {
                        throw AppSyncError.fieldUnauthorized(info.fieldName, on: info.parentType.name)
                    }
                    return try await resolveAdmitted(source, args, context, info)
                }
            }
            switch operation.parent {
            case .query: queryResolvers[operation.name] = resolve
            case .mutation: mutationResolvers[operation.name] = resolve
            }
        }
        self.modelMutations = modelMutations
        readsRequestHeaders = !schema.functionFields.isEmpty || schema.customOperations.contains { !$0.functions.isEmpty || $0.http != nil }
        self.queryFields = queryFields
        if let query = graphQL.queryType { try Self.attach(queryResolvers, to: query) }
        if let mutation = graphQL.mutationType { try Self.attach(mutationResolvers, to: mutation) }
    }

    /// A field answered by its `@function` pipeline: the event carries the field's arguments,
    /// the parent object as `source` (`null` on root fields), the caller and their headers.
    private static func functionResolver(_ pipeline: FunctionPipeline) -> GraphQLFieldResolve {
        { source, args, context, _ in
            let scope = context as? RequestScope
            let value = try await pipeline.resolve(
                arguments: JSONValue(args), source: Self.sourceValue(source), request: scope?.functionRequest ?? .init())
            return value.resolvable
        }
    }

    /// A parent object as the event's `source`: a stored item or a value inside one.
    private static func sourceValue(_ source: Any) -> JSONValue {
        switch source {
        case let object as ItemObject: return .object(object.item)
        case let object as StoredObject: return .object(object.fields)
        default: return .null
        }
    }

    /// What the request's caller may do through the root field at `info`.
    private static func access(_ model: ModelSchema, _ operation: ModelOperation, _ context: Any, _ info: GraphQLResolveInfo) -> RootAccess {
        (context as? RequestScope)?.access(model, operation, info) ?? .open(field: info.fieldName, parentType: info.parentType.name)
    }

    /// A root connection field: when the request's plan projects its items, the resolver gets
    /// a writer for them and the page is set aside for the response.
    private static func connection(
        _ model: ModelSchema, args: Map, maxPage: Int, context: Any, info: GraphQLResolveInfo, projection: ItemProjection,
        resolve: (ItemProjection.ItemArrayWriter?) async throws -> Connection
    ) async throws -> Connection {
        guard let scope = context as? RequestScope, let (key, root) = scope.root(info), case .page(let page) = root else {
            return try await budgeted(args, context: context, maxPage: maxPage) { try await resolve(nil) }
        }
        var connection = try await budgeted(args, context: context, maxPage: maxPage) {
            try await resolve(scope.projection.writer(for: page.items))
        }
        switch connection.items {
        case .projected(let array):
            scope.projected.page(key, plan: page, items: .projected(array))
        case .objects(let objects):
            scope.projected.page(key, plan: page, items: .stored(objects.map(\.item)))
        }
        connection.items = .objects([])
        return connection
    }

    /// Reads a page with the items it may return reserved in the request's ``ResolverBudget``
    /// first, and what it did not use given back.
    private static func budgeted(
        _ args: Map, context: Any, maxPage: Int, _ read: () async throws -> Connection
    ) async throws -> Connection {
        guard let budget = (context as? RequestScope)?.budget else { return try await read() }
        let reserved = min(max(args.argument("limit")?.intValue ?? QueryResolvers.defaultLimit, 0), maxPage)
        try budget.reserveItems(reserved)
        let connection: Connection
        do {
            connection = try await read()
        } catch {
            budget.settleItems(reserved: reserved, used: 0)
            throw error
        }
        budget.settleItems(reserved: reserved, used: connection.count)
        return connection
    }

    /// A root mutation field: the mutation's outcome (``MutationShortcut``'s when it ran the
    /// mutation already), completed by ``completed(_:context:info:projection:)``.
    private static func mutationResult(
        context: Any, info: GraphQLResolveInfo, projection: ItemProjection, resolve: () async throws -> ItemObject
    ) async throws -> ItemObject? {
        let result: ItemObject
        if let earlier = (context as? RequestScope)?.earlierResult(info) {
            result = try earlier.get()
        } else {
            result = try await resolve()
        }
        return completed(result, context: context, info: info, projection: projection)
    }

    /// `result` for the executor to complete, or `nil` once it is completed here: when the
    /// request's plan says so (``ResponsePlan/Root/object(_:)``) and every field has a value.
    /// The executor then sees `null`, and ``RequestExecutor`` puts the result in its place.
    private static func completed(
        _ result: ItemObject, context: Any, info: GraphQLResolveInfo, projection: ItemProjection
    ) -> ItemObject? {
        guard let scope = context as? RequestScope, let (key, root) = scope.root(info), case .object(let plan) = root,
            let completed = scope.projection.object(result.item, plan: plan)
        else { return result }
        scope.projected.object(key, completed)
        return nil
    }

    /// Every field of a model type asks `authorization` before it is read, for what the
    /// executor completes (``ItemProjection`` asks it for what it writes). A denied field
    /// throws its error: the executor nulls it, or its parent when it is non-null.
    private static func authorize(_ type: GraphQLObjectType, ownerNames: Set<String>) throws {
        let typeName = type.name
        try GraphQLLibraryHooks.wrapFields(of: type) { name, resolve in
            let read: GraphQLFieldResolve = resolve ?? { source, _, _, info in
                guard let object = source as? ItemObject else { return nil }
                return ownerNames.contains(info.fieldName)
                    ? OwnerName.shown(object.item[info.fieldName] ?? .null).resolvable : object[info.fieldName]
            }
            return { source, args, context, info in
                if let authorization = (context as? RequestScope)?.fieldAuthorization, let item = (source as? ItemObject)?.item,
                    let denial = authorization.denial(of: name, on: typeName, in: item)
                {
                    throw denial
                }
                return try await read(source, args, context, info)
            }
        }
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

    /// Sets resolvers on a built type: every resolver counts against the request's budget
    /// before it reads anything.
    private static func attach(_ resolvers: [String: GraphQLFieldResolve], to type: GraphQLObjectType) throws {
        try GraphQLLibraryHooks.attach(resolvers, to: type) { resolve in
            { source, args, context, info in
                try (context as? RequestScope)?.budget.spendResolver()
                return try await resolve(source, args, context, info)
            }
        }
    }
}
