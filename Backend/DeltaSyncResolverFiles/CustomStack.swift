import DeltaSyncCore
import DeltaSyncGraphQL

/// One custom stack of the API (`stacks/CustomResources.json`): its AppSync resources as
/// DeltaSync's definitions. Resolvers (UNIT and PIPELINE), functions and data sources are
/// read with their templates, inline or at an S3 location under the deployment bucket, which
/// is the API folder here (`.../resolvers/Query.echo.req.vtl` is `resolvers/Query.echo.req.vtl`).
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
        /// The API folder's files the stack's templates are read from.
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
        var runtimes: Set<String> = []
        for (id, resource) in resources.sorted(by: { $0.key < $1.key }) {
            guard resource["Type"].stringValue == "AWS::AppSync::DataSource" else { continue }
            let properties = resource["Properties"]
            let name = try string(properties["Name"], id, "Name")
            let kind = try dataSourceKind(properties, id: id)
            if case .unsupported(let why) = kind {
                definitions.findings.append(ResolverFinding(file: "\(file)#\(id)", reason: "\(why); fields that call it answer UnsupportedOperation"))
            }
            definitions.dataSources.append(DataSourceDefinition(name: name, kind: kind))
        }
        let known = generatedDataSources.union(definitions.dataSources.map(\.name))
        func source(_ value: JSONValue, _ id: String) throws(ResolverFileError) -> String {
            let name = try string(value, id, "DataSourceName")
            guard known.contains(name) else {
                throw ResolverFileError(file: "\(file)#\(id)", message: "DataSourceName \(name) is neither a data source of the stack nor one Amplify generates (\(generatedDataSources.sorted().joined(separator: ", "))).")
            }
            return name
        }
        func template(_ properties: JSONValue, _ which: String, _ id: String) throws(ResolverFileError) -> String? {
            if let inline = properties["\(which)MappingTemplate"].stringValue { return inline }
            let location = properties["\(which)MappingTemplateS3Location"]
            guard !location.isNull else { return nil }
            let path = try self.path(of: try string(location, id, "\(which)MappingTemplateS3Location"), id)
            guard let text = read(path) else {
                throw ResolverFileError(file: "\(file)#\(id)", message: "\(which)MappingTemplateS3Location leads to \(path), which does not exist.")
            }
            definitions.templateFiles.insert(path)
            return text
        }
        var functions: [String: FunctionDefinition] = [:]
        for (id, resource) in resources.sorted(by: { $0.key < $1.key }) where resource["Type"].stringValue == "AWS::AppSync::FunctionConfiguration" {
            let properties = resource["Properties"]
            let name = try string(properties["Name"], id, "Name")
            if let runtime = properties["Runtime"]["Name"].stringValue, runtime != "APPSYNC_VTL" {
                definitions.findings.append(ResolverFinding(file: "\(file)#\(id)", reason: "\(runtime) functions do not run yet; pipelines that call \(name) answer UnsupportedOperation"))
                runtimes.insert(runtime)
                functions[id] = FunctionDefinition(name: name, dataSource: Self.unsupportedSource(runtime), request: Self.unsupportedRequest, response: nil)
                continue
            }
            functions[id] = FunctionDefinition(
                name: name, dataSource: try source(properties["DataSourceName"], id),
                request: try template(properties, "Request", id) ?? "{}", response: try template(properties, "Response", id))
        }
        for (id, resource) in resources.sorted(by: { $0.key < $1.key }) where resource["Type"].stringValue == "AWS::AppSync::Resolver" {
            let properties = resource["Properties"]
            let type = try string(properties["TypeName"], id, "TypeName")
            let field = try string(properties["FieldName"], id, "FieldName")
            if let runtime = properties["Runtime"]["Name"].stringValue, runtime != "APPSYNC_VTL" {
                definitions.findings.append(ResolverFinding(file: "\(file)#\(id)", reason: "\(runtime) resolvers do not run yet; \(type).\(field) answers UnsupportedOperation"))
                runtimes.insert(runtime)
                definitions.resolvers.append(ResolverDefinition(
                    type: type, field: field, kind: .unit(dataSource: Self.unsupportedSource(runtime), request: Self.unsupportedRequest, response: nil)))
                continue
            }
            let kind: ResolverDefinition.Kind
            if properties["Kind"].stringValue == "PIPELINE" {
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
                kind = .pipeline(before: try template(properties, "Request", id), functions: steps, after: try template(properties, "Response", id))
            } else {
                kind = .unit(
                    dataSource: try source(properties["DataSourceName"], id),
                    request: try template(properties, "Request", id) ?? "{}", response: try template(properties, "Response", id))
            }
            definitions.resolvers.append(ResolverDefinition(type: type, field: field, kind: kind))
        }
        for runtime in runtimes.sorted() {
            definitions.dataSources.append(DataSourceDefinition(name: Self.unsupportedSource(runtime), kind: .unsupported("\(runtime) code does not run yet")))
        }
        for (id, resource) in resources.sorted(by: { $0.key < $1.key }) {
            let type = resource["Type"].stringValue ?? "(no Type)"
            guard !type.hasPrefix("AWS::AppSync::Resolver"), !type.hasPrefix("AWS::AppSync::FunctionConfiguration"),
                !type.hasPrefix("AWS::AppSync::DataSource"), !type.hasPrefix("AWS::IAM::")
            else { continue }
            definitions.findings.append(ResolverFinding(file: "\(file)#\(id)", reason: "a \(type) resource; DeltaSync runs a stack's AppSync resolvers, functions and data sources"))
        }
        return definitions
    }

    /// A data source standing for code of a runtime DeltaSync does not run.
    static func unsupportedSource(_ runtime: String) -> String { "DeltaSync-unsupported-\(runtime)" }
    static let unsupportedRequest = #"{"version": "2018-05-29"}"#

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
            // arn:aws:lambda:<region>:<account>:function:<name>[:<qualifier>]
            let parts = arn.split(separator: ":", omittingEmptySubsequences: false)
            guard let index = parts.firstIndex(of: "function"), index + 1 < parts.count else { return .lambda(function: arn) }
            return .lambda(function: String(parts[index + 1]))
        default:
            return .unsupported("a \(type.isEmpty ? "data source without a Type" : type) data source does not run on DeltaSync")
        }
    }

    /// A template location's file in the API folder: the path after the deployment root key.
    private func path(of location: String, _ id: String) throws(ResolverFileError) -> String {
        for folder in ["/resolvers/", "/pipelineFunctions/"] {
            if let range = location.range(of: folder) { return String(folder.dropFirst()) + location[range.upperBound...] }
        }
        throw ResolverFileError(file: "\(file)#\(id)", message: "the template location \(location) is not in the API's resolvers/ or pipelineFunctions/ folder, where DeltaSync reads templates.")
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
