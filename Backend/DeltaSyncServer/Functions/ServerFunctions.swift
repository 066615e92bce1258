import DeltaSyncFunctions
import DeltaSyncGraphQL
import DeltaSyncJSRuntime
import DeltaSyncSchema
import Foundation
import Logging
import ServiceLifecycle

/// The functions a server's `@function` fields call, composed from its configuration:
/// ``ServerConfiguration/functions`` over ``ServerConfiguration/functionsFile`` over the
/// Amplify project's `amplify/backend/function/*`; and the warm workers its APPSYNC_JS
/// resolvers run in, which start with the first such resolver's call.
struct ServerFunctions: FunctionDirectory {
    let catalog: FunctionCatalog
    let jsRuntime: AppSyncJSRuntime
    /// The function names the schema uses, each once, in the order written.
    let referenced: [String]

    /// - Throws: ``FunctionsFileError`` for a malformed `functions.json`,
    ///   ``FunctionCatalogError`` for a function that cannot be set up.
    init(configuration: ServerConfiguration, schema: AmplifySchema, schemaFiles: [String], logger: Logger) throws {
        var explicit: [FunctionCatalog.Entry] = []
        for (name, function) in configuration.functions.sorted(by: { $0.key < $1.key }) {
            let summary = (function as? HTTPFunction).map { "\($0.url)" } ?? String(describing: type(of: function))
            explicit.append(FunctionCatalog.Entry(name: name, function: function, timeout: configuration.functionTimeout, summary: summary))
        }
        let file = try configuration.functionsFile.map { path throws(FunctionsFileError) in try FunctionsFile(contentsOf: path) }
        let amplify = configuration.amplifyProjectRoot.map { AmplifyFunctionProject(projectDirectory: $0, region: configuration.region) }
        var setup = FunctionCatalog.Setup(
            bootstrapDirectory: (configuration.dataDirectory as NSString).appendingPathComponent("functions"),
            region: configuration.region, environmentName: configuration.amplifyEnvironment)
        if configuration.port != 0, let apiName = Self.apiName(schemaFiles) {
            // The local API, as Amplify passes it to functions that depend on the API.
            setup.api = LambdaEnvironment.API(
                apiName: apiName, endpoint: "\(configuration.tls == nil ? "http" : "https")://\(configuration.host):\(configuration.port)/graphql",
                apiID: "deltasync", apiKey: configuration.apiKey)
        }
        catalog = try FunctionCatalog.combining(explicit: explicit, functionsFile: file, amplifyProject: amplify, setup: setup, logger: logger)
        jsRuntime = AppSyncJSRuntime(logger: logger)
        var seen: Set<String> = []
        let names = schema.customOperations.flatMap { $0.functions.map(\.name) } + schema.functionFields.flatMap { $0.functions.map(\.name) }
        referenced = names.filter { seen.insert($0).inserted }
    }

    func function(named written: String) -> ConfiguredFunction? {
        catalog.function(named: written).map { ConfiguredFunction(name: Self.runName(written, entry: $0, catalog: catalog), function: $0.function, timeout: $0.timeout) }
    }

    /// The name the function runs under, as Lambda would name it: `${env}` resolved, or the
    /// configured name when the schema's name carries no `${env}`.
    private static func runName(_ written: String, entry: FunctionCatalog.Entry, catalog: FunctionCatalog) -> String {
        guard written.contains("${env}") else { return entry.name }
        return catalog.environmentName == "NONE"
            ? written.replacingOccurrences(of: "-${env}", with: "").replacingOccurrences(of: "${env}", with: "")
            : written.replacingOccurrences(of: "${env}", with: catalog.environmentName)
    }

    /// The API's name when the schema is an Amplify API's (`amplify/backend/api/<name>/`).
    private static func apiName(_ schemaFiles: [String]) -> String? {
        guard let file = schemaFiles.first else { return nil }
        let parts = URL(fileURLWithPath: file).standardizedFileURL.pathComponents
        guard let index = parts.lastIndex(of: "api"), index >= 2, parts[index - 1] == "backend", parts[index - 2] == "amplify",
            index + 1 < parts.count - 1
        else { return nil }
        return parts[index + 1]
    }
}

/// Stops the functions' local processes and the JavaScript workers once the server has
/// stopped: listed before the application in the service group, which shuts services down in
/// reverse order, so requests in flight still reach their functions.
struct FunctionProcessShutdown: Service, Sendable {
    let functions: ServerFunctions

    func run() async throws {
        try? await gracefulShutdown()
        await functions.catalog.shutdown()
        await functions.jsRuntime.shutdown()
    }
}
