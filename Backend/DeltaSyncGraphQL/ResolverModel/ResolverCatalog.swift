import DeltaSyncCore
import DeltaSyncJSRuntime

/// The project's resolvers and data sources (``ResolverDefinition``, ``DataSourceDefinition``)
/// made ready to run: templates parsed, APPSYNC_JS code checked (it runs in the environment's
/// ``AppSyncJSRuntime``), data sources connected, each field checked once.
///
/// ```swift
/// try environment.resolve(with: resolvers, dataSources: sources)
/// ```
enum ResolverCatalog {
    /// - Throws: ``AppSyncError`` (`BadRequest`, or `MappingTemplate` with the template's name,
    ///   line and column) for a field resolved twice, a data source named twice or not at all,
    ///   a template that does not parse, code AppSync would not save (with its file, line and
    ///   column), or a pipeline over AppSync's quota of functions.
    static func compile(
        _ resolvers: [ResolverDefinition], dataSources: [DataSourceDefinition], environment: ResolverEnvironment
    ) throws(AppSyncError) -> [FieldCoordinate: FieldResolver] {
        var sources: [String: any DataSource] = [:]
        for definition in [DataSourceDefinition.none] + dataSources {
            if definition.name != "NONE", sources[definition.name] != nil {
                throw AppSyncError(.badRequest, "Two data sources are named \(definition.name): give each its own name.")
            }
            sources[definition.name] = try dataSource(definition, environment: environment)
        }
        func source(_ name: String, for owner: String) throws(AppSyncError) -> any DataSource {
            guard let found = sources[name] else {
                let known = sources.keys.sorted().joined(separator: ", ")
                throw AppSyncError(.badRequest, "\(owner) names the data source \(name), which is not defined (defined: \(known)).")
            }
            return found
        }
        func runtime(for name: String) throws(AppSyncError) -> AppSyncJSRuntime {
            guard let runtime = environment.jsRuntime else {
                throw AppSyncError(.badRequest, "\(name) is APPSYNC_JS code, and this server was made without a JavaScript runtime.")
            }
            return runtime
        }
        func function(_ function: FunctionDefinition) throws(AppSyncError) -> any ResolverFunction {
            let dataSource = try source(function.dataSource, for: "The function \(function.name)")
            if let code = function.code {
                return CodeFunction(name: function.name, dataSource: dataSource, code: try ResolverCode(code, runtime: try runtime(for: code.name)))
            }
            return TemplateFunction(
                name: function.name, dataSource: dataSource,
                request: try MappingTemplate(function.request, name: "\(function.name).req.vtl"),
                response: try function.response.map { text throws(AppSyncError) in try MappingTemplate(text, name: "\(function.name).res.vtl") })
        }
        var compiled: [FieldCoordinate: FieldResolver] = [:]
        for definition in resolvers {
            let coordinate = FieldCoordinate(type: definition.type, field: definition.field)
            guard compiled[coordinate] == nil else {
                throw AppSyncError(.badRequest, "\(coordinate) has two resolvers: a field has one, unit or pipeline.")
            }
            switch definition.kind {
            case .unit(let dataSource, let request, let response):
                compiled[coordinate] = .unit(TemplateFunction(
                    name: coordinate.description, dataSource: try source(dataSource, for: "The resolver of \(coordinate)"),
                    request: try MappingTemplate(request, name: "\(coordinate).req.vtl"),
                    response: try response.map { text throws(AppSyncError) in try MappingTemplate(text, name: "\(coordinate).res.vtl") },
                    functionVersion: nil))
            case .pipeline(let before, let functions, let after):
                var steps: [any ResolverFunction] = []
                for definition in functions { steps.append(try function(definition)) }
                compiled[coordinate] = try FieldResolver.pipeline(
                    before: try before.map { text throws(AppSyncError) in .template(try MappingTemplate(text, name: "\(coordinate).before.vtl")) },
                    functions: steps,
                    after: try after.map { text throws(AppSyncError) in .template(try MappingTemplate(text, name: "\(coordinate).after.vtl")) })
            case .jsUnit(let dataSource, let code):
                compiled[coordinate] = .unit(CodeFunction(
                    name: coordinate.description, dataSource: try source(dataSource, for: "The resolver of \(coordinate)"),
                    code: try ResolverCode(code, runtime: try runtime(for: code.name))))
            case .jsPipeline(let code, let functions):
                var steps: [any ResolverFunction] = []
                for definition in functions { steps.append(try function(definition)) }
                let handlers = try ResolverCode(code, runtime: try runtime(for: code.name))
                compiled[coordinate] = try FieldResolver.pipeline(before: .code(handlers), functions: steps, after: .code(handlers))
            }
        }
        return compiled
    }

    private static func dataSource(_ definition: DataSourceDefinition, environment: ResolverEnvironment) throws(AppSyncError) -> any DataSource {
        switch definition.kind {
        case .none:
            return NoneDataSource(name: definition.name)
        case .lambda(let function):
            return LambdaDataSource(functionName: function, directory: environment.functions, logger: environment.logger)
        case .http(let endpoint):
            return try HTTPDataSource(name: definition.name, endpoint: endpoint)
        case .dynamoDB(let table):
            return try DynamoDBDataSource(name: definition.name, table: table, environment: environment)
        case .unsupported(let reason):
            return UnsupportedDataSource(name: definition.name, reason: reason)
        }
    }
}

extension ResolverEnvironment {
    /// Resolves the fields `resolvers` name with them instead of the generated resolvers, and
    /// runs `slots` and `overrides` in the generated fields' pipelines.
    ///
    /// - Parameter variables: `$ctx.env`.
    /// - Throws: what ``ResolverCatalog/compile(_:dataSources:environment:)`` throws, and
    ///   `BadRequest` for environment variables beyond AppSync's limits.
    package mutating func resolve(
        with resolvers: [ResolverDefinition], dataSources: [DataSourceDefinition], variables: [String: String] = [:],
        slots: [SlotFunctionDefinition] = [], overrides: [DataStepOverride] = []
    ) throws(AppSyncError) {
        guard variables.count <= 50 else {
            throw AppSyncError(.badRequest, "An API has at most 50 environment variables; \(variables.count) are set.")
        }
        for (name, value) in variables {
            guard name.count >= 2, name.first!.isASCII, name.first!.isLetter,
                name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
            else {
                throw AppSyncError(.badRequest, "The environment variable name '\(name)' must start with a letter and hold letters, digits and _ (two characters at least).")
            }
            guard value.count <= 512 else {
                throw AppSyncError(.badRequest, "The environment variable \(name) holds \(value.count) characters; at most 512 are allowed.")
            }
        }
        resolverVariables = variables
        fieldResolvers = try ResolverCatalog.compile(resolvers, dataSources: dataSources, environment: self)
        slotPlans = try SlotCatalog.compile(slots, overrides: overrides, environment: self)
        for coordinate in slotPlans.keys where fieldResolvers[coordinate] != nil {
            throw AppSyncError(.badRequest, "\(coordinate) has a resolver of the project's and slots or overrides of its generated one: give it one or the other.")
        }
    }
}
