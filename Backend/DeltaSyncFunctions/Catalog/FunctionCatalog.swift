import DeltaSyncCore
import Foundation
import Logging

/// The functions a server can call, by name, whatever runs them: HTTP endpoints, local
/// processes (commands, Node and Python handlers) and Swift closures.
///
/// ```swift
/// let setup = FunctionCatalog.Setup(bootstrapDirectory: dataDirectory + "/functions")
/// let catalog = try FunctionCatalog.combining(
///     explicit: [try FunctionCatalog.Entry(flag: "echo=http://127.0.0.1:9000/echo")],
///     functionsFile: try FunctionsFile(contentsOf: "functions.json"),
///     amplifyProject: AmplifyFunctionProject(projectDirectory: "."),
///     setup: setup, logger: logger)
/// if let calc = catalog.function(named: "calc-${env}") { _ = try await calc.function.invoke(invocation) }
/// await catalog.shutdown()
/// ```
///
/// Of two entries of one name, explicit ones (flags, embedding code) win over `functions.json`,
/// which wins over the Amplify project: the more deliberate the configuration, the later it
/// was written to override a default.
///
/// Names are looked up as Amplify writes them in `@function(name:)`; see ``function(named:)``.
public struct FunctionCatalog: Sendable {
    /// The entries by name.
    public private(set) var entries: [String: Entry]
    /// Amplify's environment name, for `${env}` in function names.
    public var environmentName: String
    /// Every process function created, shadowed ones included, so ``shutdown()`` stops all.
    private var processes: [LocalProcessFunction]

    /// A catalog of explicit entries (the last of one name wins).
    ///
    /// ```swift
    /// let catalog = FunctionCatalog([.closure(name: "double") { _ in 4 }])
    /// ```
    public init(_ entries: [Entry] = [], environmentName: String = "NONE") {
        self.entries = Dictionary(entries.map { ($0.name, $0) }, uniquingKeysWith: { _, last in last })
        self.environmentName = environmentName
        self.processes = []
    }

    /// The functions of a `functions.json`.
    ///
    /// - Throws: ``FunctionCatalogError`` when a function's env file is malformed or its
    ///   handler cannot be run.
    public init(functionsFile file: FunctionsFile, setup: Setup, logger: Logger) throws(FunctionCatalogError) {
        self.init(environmentName: setup.environmentName ?? "NONE")
        let region = setup.region ?? file.region ?? "us-east-1"
        for function in file.functions {
            let entry: Entry
            switch function.kind {
            case .url(let url):
                entry = .url(name: function.name, url: url, timeout: function.timeout, source: .functionsFile)
            case .command(let command):
                let directory = function.directory ?? setup.displayDirectory
                let environment = LambdaEnvironment(
                    functionName: function.name, functionDirectory: directory, region: region, environmentName: environmentName,
                    api: setup.api, configured: function.environment, envFile: function.envFile, serverEnvironment: setup.serverEnvironment)
                let configuration = LocalProcessConfiguration(
                    command: command, workingDirectory: directory, environment: try Self.variables(environment, function: function.name),
                    maxProcesses: function.maxProcesses ?? 4)
                let summary = Self.shellWords(command) + (directory == setup.displayDirectory ? "" : " (in \(setup.display(directory)))")
                entry = add(process: configuration, name: function.name, timeout: function.timeout, summary: summary, source: .functionsFile, logger: logger)
            case .handler(let handler, let runtime):
                let directory = function.directory ?? setup.displayDirectory
                let environment = LambdaEnvironment(
                    functionName: function.name, handler: handler, functionDirectory: directory, region: region, environmentName: environmentName,
                    api: setup.api, configured: function.environment, envFile: function.envFile, serverEnvironment: setup.serverEnvironment)
                entry = try addHandler(
                    name: function.name, handler: handler, runtime: runtime, directory: directory, environment: environment,
                    maxProcesses: function.maxProcesses ?? 4, timeout: function.timeout, source: .functionsFile, setup: setup, logger: logger)
            }
            entries[function.name] = entry
        }
    }

    /// The functions of an Amplify Gen 1 project, run as Node or Python handlers with their
    /// template's environment and `.env`.
    ///
    /// - Throws: ``FunctionCatalogError`` when a function's `.env` is malformed or its handler
    ///   cannot be run.
    public init(amplifyProject project: AmplifyFunctionProject, setup: Setup, logger: Logger) throws(FunctionCatalogError) {
        self.init(environmentName: setup.environmentName ?? project.environmentName)
        let region = setup.region ?? project.region ?? "us-east-1"
        for function in project.functions {
            let environment = LambdaEnvironment(
                functionName: deployedName(function.name), handler: function.handler, functionDirectory: function.sourceDirectory, region: region,
                environmentName: environmentName, api: setup.api,
                configured: function.environment(environmentName: environmentName, region: region), envFile: function.envFile,
                serverEnvironment: setup.serverEnvironment)
            entries[function.name] = try addHandler(
                name: function.name, handler: function.handler, runtime: function.runtime, directory: function.sourceDirectory,
                environment: environment, maxProcesses: 4, timeout: function.timeout ?? FunctionsFile.defaultTimeout,
                source: .amplifyProject, setup: setup, logger: logger)
        }
    }

    /// The catalog of a server: `explicit` entries over `functionsFile` over `amplifyProject`.
    ///
    /// The environment name is the setup's, else the Amplify project's, else `NONE`; the
    /// region the setup's, else functions.json's (for its functions) or the project's (for
    /// its functions), else `us-east-1`.
    public static func combining(
        explicit: [Entry] = [], functionsFile: FunctionsFile? = nil, amplifyProject: AmplifyFunctionProject? = nil,
        setup: Setup, logger: Logger
    ) throws(FunctionCatalogError) -> FunctionCatalog {
        var setup = setup
        if setup.environmentName == nil { setup.environmentName = amplifyProject?.environmentName }
        var catalog = FunctionCatalog(explicit, environmentName: setup.environmentName ?? "NONE")
        if let functionsFile { catalog = catalog.merging(try FunctionCatalog(functionsFile: functionsFile, setup: setup, logger: logger)) }
        if let amplifyProject { catalog = catalog.merging(try FunctionCatalog(amplifyProject: amplifyProject, setup: setup, logger: logger)) }
        return catalog
    }

    /// This catalog with the entries of `lower` it does not have: this one's win.
    ///
    /// ```swift
    /// let catalog = FunctionCatalog(flags).merging(fromFile).merging(fromAmplify)
    /// ```
    public func merging(_ lower: FunctionCatalog) -> FunctionCatalog {
        var merged = self
        merged.entries.merge(lower.entries) { mine, _ in mine }
        merged.processes += lower.processes
        return merged
    }

    /// Adds `entry`, replacing one of the same name.
    public mutating func add(_ entry: Entry) {
        entries[entry.name] = entry
    }

    /// The entry `@function(name: written)` calls, trying the name as Amplify writes it:
    /// 1. as written (`calc`, or `calc-dev` configured by its deployed name);
    /// 2. with `${env}` replaced by the environment name (`calc-${env}` → `calc-dev`);
    /// 3. with `-${env}` and `${env}` removed (`calc-${env}` → `calc`, the Amplify folder's
    ///    name, which is also what Amplify deploys when the environment is `NONE`);
    /// 4. a deployed name without its environment (`calc-dev` → `calc`, as an ARN in a resolver
    ///    template names it).
    ///
    /// ```swift
    /// catalog.function(named: "calc-${env}")?.name   // "calc"
    /// ```
    public func function(named written: String) -> Entry? {
        for candidate in candidates(written) {
            if let entry = entries[candidate] { return entry }
        }
        return nil
    }

    /// The names of `names` that no entry answers to, each once, in order: what `deltasync
    /// serve` lists at start so a missing function shows before a query fails.
    ///
    /// ```swift
    /// catalog.unconfigured(["calc-${env}", "resize", "resize"])   // ["resize"]
    /// ```
    public func unconfigured(_ names: [String]) -> [String] {
        var seen: Set<String> = []
        return names.filter { function(named: $0) == nil && seen.insert($0).inserted }
    }

    /// One line per entry, by name, for the start banner: `calc → node amplify/backend/function/calc/src (index.handler)`.
    public var descriptions: [String] {
        entries.keys.sorted().map { entries[$0]!.description }
    }

    /// Stops every local process the catalog started.
    public func shutdown() async {
        for process in processes {
            await process.shutdown()
        }
    }

    // MARK: - Building

    /// The name Amplify deploys a project's function under: `calc-dev` for folder `calc` in
    /// environment `dev`, `calc` when the environment is `NONE`. Lambda's
    /// `AWS_LAMBDA_FUNCTION_NAME` is that name.
    private func deployedName(_ folder: String) -> String {
        environmentName == "NONE" ? folder : "\(folder)-\(environmentName)"
    }

    /// A command as one line a shell would read back: words with spaces, quotes or line breaks
    /// single-quoted, line breaks shown as `\n`.
    static func shellWords(_ command: [String]) -> String {
        command.map { word in
            let plain = !word.isEmpty && word.allSatisfy { $0.isLetter || $0.isNumber || "-_./=:@%+,".contains($0) }
            if plain { return word }
            return "'" + word.replacingOccurrences(of: "'", with: "'\\''").replacingOccurrences(of: "\n", with: "\\n") + "'"
        }.joined(separator: " ")
    }

    private func candidates(_ written: String) -> [String] {
        var names = [written]
        names.append(written.replacingOccurrences(of: "${env}", with: environmentName))
        names.append(written.replacingOccurrences(of: "-${env}", with: "").replacingOccurrences(of: "${env}", with: ""))
        // A deployed name (`resize-dev`, as an ARN in a template holds it) names the project's
        // function `resize`.
        if environmentName != "NONE", written.hasSuffix("-" + environmentName) {
            names.append(String(written.dropLast(environmentName.count + 1)))
        }
        return names
    }

    private mutating func add(
        process configuration: LocalProcessConfiguration, name: String, timeout: Duration, summary: String, source: Entry.Source, logger: Logger
    ) -> Entry {
        var logger = logger
        logger[metadataKey: "function"] = "\(name)"
        let function = LocalProcessFunction(name: name, configuration: configuration, logger: logger)
        processes.append(function)
        return Entry(name: name, function: function, timeout: timeout, summary: summary, source: source, process: configuration)
    }

    private mutating func addHandler(
        name: String, handler: String, runtime: HandlerRuntime, directory: String, environment: LambdaEnvironment, maxProcesses: Int,
        timeout: Duration, source: Entry.Source, setup: Setup, logger: Logger
    ) throws(FunctionCatalogError) -> Entry {
        let command: [String]
        do {
            command = try runtime.command(handler: handler, sourceDirectory: directory, bootstrapDirectory: setup.bootstrapDirectory)
        } catch {
            throw FunctionCatalogError("Function \(name) (\(runtime.rawValue) \(setup.display(directory)), \(handler)) cannot be started: \(error.errorMessage)")
        }
        let configuration = LocalProcessConfiguration(
            command: command, workingDirectory: directory, environment: try Self.variables(environment, function: name), maxProcesses: maxProcesses)
        let summary = "\(runtime.rawValue) \(setup.display(directory)) (\(handler))"
        return add(process: configuration, name: name, timeout: timeout, summary: summary, source: source, logger: logger)
    }

    private static func variables(_ environment: LambdaEnvironment, function: String) throws(FunctionCatalogError) -> [String: String] {
        do {
            return try environment.variables()
        } catch {
            throw FunctionCatalogError("Function \(function): \(error)")
        }
    }
}
