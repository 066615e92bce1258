import DeltaSyncCore
import DeltaSyncGraphQL

/// One custom stack of the API (`stacks/CustomResources.json`): its AppSync resources as
/// DeltaSync's definitions. Resolvers (UNIT and PIPELINE), functions and data sources are
/// read with their templates, inline or at an S3 location under the deployment bucket, which
/// is the API folder here (`.../resolvers/Query.echo.req.vtl` is `resolvers/Query.echo.req.vtl`),
/// or with their APPSYNC_JS code (`Runtime: {Name: APPSYNC_JS}` with `Code` or `CodeS3Location`,
/// read the same way).
struct CustomStack {
    /// The stack file, relative to the API folder, for errors and findings.
    let file: String
    let resources: [String: JSONValue]
    let values: CloudFormationValue

    /// What the stack defines.
    struct Definitions {
        var resolvers: [ResolverDefinition] = []
        var dataSources: [DataSourceDefinition] = []
        var findings: [ResolverFinding] = []
        /// The API folder's files the stack's templates and code are read from.
        var templateFiles: Set<String> = []
    }

    /// - Parameter template: a file of the API folder by its relative path, or `nil` when it
    ///   does not exist.
    init(file: String, document: JSONValue, parameters: StackParameters) throws(ResolverFileError) {
        self.file = file
        guard case .object(let resources) = document["Resources"] else {
            throw ResolverFileError(file: file, message: "a stack needs a Resources object")
        }
        self.resources = resources
        values = CloudFormationValue(parameters: parameters, resources: resources)
    }

    /// Reads the stack's AppSync resources.
    ///
    /// - Parameters:
    ///   - generatedDataSources: the data sources Amplify generates (`TodoTable`, `NONE_DS`),
    ///     which the stack's resolvers may name.
    ///   - read: the text of a file of the API folder, `nil` when it does not exist.
    func definitions(generatedDataSources: Set<String>, read: (String) -> String?) throws(ResolverFileError) -> Definitions {
        var definitions = Definitions()
        for (id, resource) in sortedResources where resource["Type"].stringValue == "AWS::AppSync::DataSource" {
            let properties = resource["Properties"]
            let name = try string(properties["Name"], id, "Name")
            let kind = try dataSourceKind(properties, id: id)
            if case .unsupported(let why) = kind {
                definitions.findings.append(ResolverFinding(file: "\(file)#\(id)", reason: "\(why); fields that call it answer UnsupportedOperation"))
            }
            definitions.dataSources.append(DataSourceDefinition(name: name, kind: kind))
        }
        let known = generatedDataSources.union(definitions.dataSources.map(\.name))
        var runtimes: Set<String> = []
        var functions: [String: FunctionDefinition] = [:]
        for (id, resource) in sortedResources where resource["Type"].stringValue == "AWS::AppSync::FunctionConfiguration" {
            functions[id] = try function(id, resource["Properties"], known: known, runtimes: &runtimes, into: &definitions, read: read)
        }
        for (id, resource) in sortedResources where resource["Type"].stringValue == "AWS::AppSync::Resolver" {
            definitions.resolvers.append(try resolver(id, resource["Properties"], functions: functions, known: known, runtimes: &runtimes, into: &definitions, read: read))
        }
        for runtime in runtimes.sorted() {
            definitions.dataSources.append(DataSourceDefinition(name: Self.unsupportedSource(runtime), kind: .unsupported("\(runtime) code does not run")))
        }
        for (id, resource) in sortedResources {
            let type = resource["Type"].stringValue ?? "(no Type)"
            guard !type.hasPrefix("AWS::AppSync::Resolver"), !type.hasPrefix("AWS::AppSync::FunctionConfiguration"),
                !type.hasPrefix("AWS::AppSync::DataSource"), !type.hasPrefix("AWS::IAM::")
            else { continue }
            definitions.findings.append(ResolverFinding(file: "\(file)#\(id)", reason: "a \(type) resource; DeltaSync runs a stack's AppSync resolvers, functions and data sources"))
        }
        return definitions
    }

    private var sortedResources: [(key: String, value: JSONValue)] { resources.sorted { $0.key < $1.key } }

    /// The runtimes a resource's code may be in: `APPSYNC_VTL` (the default) or `APPSYNC_JS`.
    private enum Runtime {
        case templates
        case javaScript
        /// Another runtime's name, which does not run.
        case other(String)

        init(_ properties: JSONValue) {
            switch properties["Runtime"]["Name"].stringValue {
            case nil, "APPSYNC_VTL": self = .templates
            case "APPSYNC_JS": self = .javaScript
            case let name?: self = .other(name)
            }
        }
    }

    // MARK: - Functions and resolvers

    private func function(
        _ id: String, _ properties: JSONValue, known: Set<String>, runtimes: inout Set<String>, into definitions: inout Definitions, read: (String) -> String?
    ) throws(ResolverFileError) -> FunctionDefinition {
        let name = try string(properties["Name"], id, "Name")
        switch Runtime(properties) {
        case .other(let runtime):
            definitions.findings.append(ResolverFinding(file: "\(file)#\(id)", reason: "\(runtime) functions do not run; pipelines that call \(name) answer UnsupportedOperation"))
            runtimes.insert(runtime)
            return FunctionDefinition(name: name, dataSource: Self.unsupportedSource(runtime), request: Self.unsupportedRequest, response: nil)
        case .javaScript:
            return FunctionDefinition(
                name: name, dataSource: try source(properties["DataSourceName"], id, known: known), code: try code(properties, id, into: &definitions, read: read))
        case .templates:
            return FunctionDefinition(
                name: name, dataSource: try source(properties["DataSourceName"], id, known: known),
                request: try template(properties, "Request", id, into: &definitions, read: read) ?? "{}",
                response: try template(properties, "Response", id, into: &definitions, read: read))
        }
    }

    private func resolver(
        _ id: String, _ properties: JSONValue, functions: [String: FunctionDefinition], known: Set<String>, runtimes: inout Set<String>,
        into definitions: inout Definitions, read: (String) -> String?
    ) throws(ResolverFileError) -> ResolverDefinition {
        let type = try string(properties["TypeName"], id, "TypeName")
        let field = try string(properties["FieldName"], id, "FieldName")
        let runtime = Runtime(properties)
        if case .other(let name) = runtime {
            definitions.findings.append(ResolverFinding(file: "\(file)#\(id)", reason: "\(name) resolvers do not run; \(type).\(field) answers UnsupportedOperation"))
            runtimes.insert(name)
            return ResolverDefinition(type: type, field: field, kind: .unit(dataSource: Self.unsupportedSource(name), request: Self.unsupportedRequest, response: nil))
        }
        let kind: ResolverDefinition.Kind
        if properties["Kind"].stringValue == "PIPELINE" {
            let steps = try pipelineFunctions(properties, id, functions: functions)
            if case .javaScript = runtime {
                kind = .jsPipeline(code: try code(properties, id, into: &definitions, read: read), functions: steps)
            } else {
                kind = .pipeline(
                    before: try template(properties, "Request", id, into: &definitions, read: read), functions: steps,
                    after: try template(properties, "Response", id, into: &definitions, read: read))
            }
        } else {
            let dataSource = try source(properties["DataSourceName"], id, known: known)
            if case .javaScript = runtime {
                kind = .jsUnit(dataSource: dataSource, code: try code(properties, id, into: &definitions, read: read))
            } else {
                kind = .unit(
                    dataSource: dataSource, request: try template(properties, "Request", id, into: &definitions, read: read) ?? "{}",
                    response: try template(properties, "Response", id, into: &definitions, read: read))
            }
        }
        return ResolverDefinition(type: type, field: field, kind: kind)
    }

    private func pipelineFunctions(_ properties: JSONValue, _ id: String, functions: [String: FunctionDefinition]) throws(ResolverFileError) -> [FunctionDefinition] {
        guard case .array(let listed) = properties["PipelineConfig"]["Functions"] else {
            throw ResolverFileError(file: "\(file)#\(id)", message: "a PIPELINE resolver lists its functions in PipelineConfig.Functions.")
        }
        var steps: [FunctionDefinition] = []
        for entry in listed {
            let reference = try string(entry, id, "PipelineConfig.Functions")
            guard let function = functions[reference] ?? functions.values.first(where: { $0.name == reference }) else {
                throw ResolverFileError(file: "\(file)#\(id)", message: "PipelineConfig.Functions names \(reference), which is not a FunctionConfiguration of the stack.")
            }
            steps.append(function)
        }
        return steps
    }

    /// A data source standing for code of a runtime DeltaSync does not run.
    static func unsupportedSource(_ runtime: String) -> String { "DeltaSync-unsupported-\(runtime)" }
    static let unsupportedRequest = #"{"version": "2018-05-29"}"#

    // MARK: - Templates and code

    private func source(_ value: JSONValue, _ id: String, known: Set<String>) throws(ResolverFileError) -> String {
        let name = try string(value, id, "DataSourceName")
        guard known.contains(name) else {
            throw ResolverFileError(file: "\(file)#\(id)", message: "DataSourceName \(name) is neither a data source of the stack nor one Amplify generates (\(known.sorted().joined(separator: ", "))).")
        }
        return name
    }

    private func template(_ properties: JSONValue, _ which: String, _ id: String, into definitions: inout Definitions, read: (String) -> String?) throws(ResolverFileError) -> String? {
        if let inline = properties["\(which)MappingTemplate"].stringValue { return inline }
        return try file(properties["\(which)MappingTemplateS3Location"], "\(which)MappingTemplateS3Location", id, into: &definitions, read: read)?.text
    }

    /// APPSYNC_JS code, inline (named after the resource) or in the file of `CodeS3Location`.
    private func code(_ properties: JSONValue, _ id: String, into definitions: inout Definitions, read: (String) -> String?) throws(ResolverFileError) -> TemplateText {
        if let inline = properties["Code"].stringValue { return TemplateText(name: "\(file)#\(id)", text: inline) }
        guard let located = try file(properties["CodeS3Location"], "CodeS3Location", id, into: &definitions, read: read) else {
            throw ResolverFileError(file: "\(file)#\(id)", message: "an APPSYNC_JS resource needs its code: Code (inline) or CodeS3Location (a file under resolvers/).")
        }
        return TemplateText(name: located.path, text: located.text)
    }

    /// The API folder's file at an S3 location, marked as the stack's; `nil` without a location.
    private func file(_ location: JSONValue, _ property: String, _ id: String, into definitions: inout Definitions, read: (String) -> String?) throws(ResolverFileError) -> (path: String, text: String)? {
        guard !location.isNull else { return nil }
        let path = try self.path(of: try string(location, id, property), id)
        guard let text = read(path) else {
            throw ResolverFileError(file: "\(file)#\(id)", message: "\(property) leads to \(path), which does not exist.")
        }
        definitions.templateFiles.insert(path)
        return (path, text)
    }

    private func dataSourceKind(_ properties: JSONValue, id: String) throws(ResolverFileError) -> DataSourceDefinition.Kind {
        let type = properties["Type"].stringValue ?? ""
        switch type {
        case "NONE":
            return .none
        case "AMAZON_DYNAMODB":
            return .dynamoDB(table: try string(properties["DynamoDBConfig"]["TableName"], id, "DynamoDBConfig.TableName"))
        case "HTTP":
            return .http(endpoint: try string(properties["HttpConfig"]["Endpoint"], id, "HttpConfig.Endpoint"))
        case "AWS_LAMBDA":
            var kept = values
            kept.keeping = ["env": "${env}"]
            let arn: String
            do {
                arn = try kept.string(properties["LambdaConfig"]["LambdaFunctionArn"])
            } catch {
                throw ResolverFileError(file: "\(file)#\(id)", message: "LambdaConfig.LambdaFunctionArn: \(error.reason).")
            }
            return .lambda(function: LambdaDataSource.functionName(inArn: arn))
        default:
            return .unsupported("a \(type.isEmpty ? "data source without a Type" : type) data source does not run on DeltaSync")
        }
    }

    /// A template or code location's file in the API folder: the path after the deployment root key.
    private func path(of location: String, _ id: String) throws(ResolverFileError) -> String {
        for folder in ["/resolvers/", "/pipelineFunctions/"] {
            if let range = location.range(of: folder) { return String(folder.dropFirst()) + location[range.upperBound...] }
        }
        throw ResolverFileError(file: "\(file)#\(id)", message: "the location \(location) is not in the API's resolvers/ or pipelineFunctions/ folder, where DeltaSync reads templates and code.")
    }

    private func string(_ value: JSONValue, _ id: String, _ property: String) throws(ResolverFileError) -> String {
        guard !value.isNull else { throw ResolverFileError(file: "\(file)#\(id)", message: "\(property) is required.") }
        do {
            return try values.string(value)
        } catch {
            throw ResolverFileError(file: "\(file)#\(id)", message: "\(property): \(error.reason).")
        }
    }
}
