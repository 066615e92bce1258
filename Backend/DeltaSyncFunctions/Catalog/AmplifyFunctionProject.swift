import DeltaSyncCore
import Foundation

/// The Lambda functions of an Amplify Gen 1 project folder, found where the Amplify CLI puts
/// them, so `@function(name: "calc-${env}")` runs `amplify/backend/function/calc` with no
/// configuration.
///
/// ```swift
/// let project = AmplifyFunctionProject(projectDirectory: "/work/my-app")
/// for function in project.functions { print(function.name, function.runtime, function.handler) }
/// ```
///
/// A function is a folder `amplify/backend/function/<name>/` with a `src/` whose handler file
/// says the runtime (`index.js`, `index.mjs`, `index.cjs` → node; `index.py` → python). From
/// `<name>-cloudformation-template.json`, when it is there and readable, come
/// `Resources.LambdaFunction.Properties`' `Handler` (default `index.handler`), `Runtime`,
/// `Timeout` and `Environment.Variables`: string values as written, `{"Ref": "env"}` as the
/// environment name, `{"Ref": "AWS::Region"}` as the region (both as the server runs, see
/// ``Function/environment(environmentName:region:)``); other values (references to other
/// stacks' outputs) are skipped, to be given in the function's `.env`.
///
/// `amplify/backend/function/<name>/.env` overrides the environment, as with `amplify mock`.
/// The environment name is `envName` of `amplify/.config/local-env-info.json`, else `NONE`.
public struct AmplifyFunctionProject: Sendable, Equatable {
    /// One function of the project.
    public struct Function: Sendable, Equatable {
        /// The folder's name, which `@function` names as `<name>-${env}`.
        public var name: String
        /// `amplify/backend/function/<name>`, absolute.
        public var directory: String
        /// `<directory>/src`: the code, and the process's working directory.
        public var sourceDirectory: String
        public var runtime: HandlerRuntime
        /// `file.export`.
        public var handler: String
        /// The template's `Runtime` (`nodejs20.x`), for descriptions.
        public var runtimeIdentifier: String?
        /// The template's `Timeout`.
        public var timeout: Duration?
        /// The template's environment variables, with the references resolved by
        /// ``environment(environmentName:region:)``.
        public var environment: [String: TemplateValue]
        /// `<directory>/.env` (it need not exist).
        public var envFile: String

        public init(
            name: String, directory: String, sourceDirectory: String, runtime: HandlerRuntime, handler: String = "index.handler",
            runtimeIdentifier: String? = nil, timeout: Duration? = nil, environment: [String: TemplateValue] = [:], envFile: String
        ) {
            self.name = name
            self.directory = directory
            self.sourceDirectory = sourceDirectory
            self.runtime = runtime
            self.handler = handler
            self.runtimeIdentifier = runtimeIdentifier
            self.timeout = timeout
            self.environment = environment
            self.envFile = envFile
        }

        /// The environment variables with `{"Ref": "env"}` and `{"Ref": "AWS::Region"}` as
        /// the server runs them, which may differ from what the project was deployed with.
        ///
        /// ```swift
        /// function.environment(environmentName: "dev", region: "eu-west-1")   // ["ENV": "dev", "REGION": "eu-west-1", …]
        /// ```
        public func environment(environmentName: String, region: String) -> [String: String] {
            environment.mapValues { value in
                switch value {
                case .text(let text): text
                case .environmentName: environmentName
                case .region: region
                }
            }
        }
    }

    /// A value of a template's `Environment.Variables` that DeltaSync can give locally.
    public enum TemplateValue: Sendable, Equatable {
        /// Written as a string (or a number).
        case text(String)
        /// `{"Ref": "env"}`.
        case environmentName
        /// `{"Ref": "AWS::Region"}`.
        case region
    }

    /// The project folder (the one holding `amplify/`), absolute.
    public var projectDirectory: String
    /// `envName` of `amplify/.config/local-env-info.json`, else `NONE`.
    public var environmentName: String
    /// The region the project's environment is deployed to (`Region` of the environment in
    /// `amplify/team-provider-info.json`), unless given; `nil` when neither says.
    public var region: String?
    /// The functions DeltaSync can run, by name.
    public var functions: [Function]
    /// Function folders it cannot run, with why (a Java function, a missing `src/`), for the
    /// start banner: a function that silently does not exist is harder to diagnose.
    public var skipped: [String: String]

    /// Looks for functions under `projectDirectory`; a folder without `amplify/backend/function`
    /// has none.
    ///
    /// - Parameter region: the region functions run in; `nil` for the environment's region in
    ///   `amplify/team-provider-info.json`.
    public init(projectDirectory: String, region: String? = nil) {
        let root = URL(fileURLWithPath: projectDirectory).standardizedFileURL.path
        self.projectDirectory = root
        self.environmentName = Self.environmentName(projectDirectory: root)
        self.region = region ?? Self.region(projectDirectory: root, environmentName: environmentName)
        self.functions = []
        self.skipped = [:]

        let functionsFolder = root + "/amplify/backend/function"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: functionsFolder)) ?? []
        for name in names.sorted() where !name.hasPrefix(".") {
            let directory = functionsFolder + "/" + name
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else { continue }
            switch Self.function(name: name, directory: directory) {
            case .success(let function): functions.append(function)
            case .failure(let reason): skipped[name] = reason.message
            }
        }
    }

    public init(projectDirectory: String, environmentName: String, region: String? = nil, functions: [Function], skipped: [String: String] = [:]) {
        self.projectDirectory = projectDirectory
        self.environmentName = environmentName
        self.region = region
        self.functions = functions
        self.skipped = skipped
    }

    /// Why a folder is not a function DeltaSync can run.
    private struct Skip: Error {
        var message: String
    }

    private static func function(name: String, directory: String) -> Result<Function, Skip> {
        let source = directory + "/src"
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: source, isDirectory: &isDirectory), isDirectory.boolValue else {
            return .failure(Skip(message: "no src/ folder in \(directory)"))
        }
        let properties = templateProperties(name: name, directory: directory)
        let handler = properties["Handler"].stringValue ?? "index.handler"
        let runtimeIdentifier = properties["Runtime"].stringValue
        let module = handler.lastIndex(of: ".").map { String(handler[..<$0]) } ?? handler
        // The files decide: the template's Runtime may be stale, a handler file is not.
        guard let runtime = FunctionsFile.inferRuntime(module: module, directory: source) else {
            let identifier = runtimeIdentifier.map { " (runtime \($0))" } ?? ""
            return .failure(Skip(message: "no \(module).js, \(module).mjs, \(module).cjs or \(module).py in \(source)\(identifier); DeltaSync runs Node and Python handlers, other functions can be given a url or command in functions.json"))
        }
        let timeout = properties["Timeout"].doubleValue.flatMap { $0 > 0 ? Duration.milliseconds(Int64($0 * 1000)) : nil }

        var environment: [String: TemplateValue] = [:]
        for (key, value) in properties["Environment"]["Variables"].objectValue ?? [:] {
            if let string = value.stringValue {
                environment[key] = .text(string)
            } else if let reference = value["Ref"].stringValue {
                switch reference {
                case "env": environment[key] = .environmentName
                case "AWS::Region": environment[key] = .region
                default: continue  // another stack's parameter: only the deployed stack knows it
                }
            } else if case .int(let number) = value {
                environment[key] = .text(String(number))
            }
        }
        return .success(Function(
            name: name, directory: directory, sourceDirectory: source, runtime: runtime, handler: handler,
            runtimeIdentifier: runtimeIdentifier, timeout: timeout, environment: environment, envFile: directory + "/.env"))
    }

    /// `Resources.LambdaFunction.Properties` of the function's template, or `null`.
    private static func templateProperties(name: String, directory: String) -> JSONValue {
        let path = directory + "/" + name + "-cloudformation-template.json"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8), let template = try? JSONValue(parsing: text) else { return .null }
        return template["Resources"]["LambdaFunction"]["Properties"]
    }

    /// `<env>.awscloudformation.Region` of `amplify/team-provider-info.json`.
    static func region(projectDirectory: String, environmentName: String) -> String? {
        let path = projectDirectory + "/amplify/team-provider-info.json"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8), let info = try? JSONValue(parsing: text),
            let region = info[environmentName]["awscloudformation"]["Region"].stringValue, !region.isEmpty
        else { return nil }
        return region
    }

    /// `envName` of `amplify/.config/local-env-info.json` (written by `amplify init`/`env checkout`).
    static func environmentName(projectDirectory: String) -> String {
        let path = projectDirectory + "/amplify/.config/local-env-info.json"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8), let info = try? JSONValue(parsing: text),
            let name = info["envName"].stringValue, !name.isEmpty
        else { return "NONE" }
        return name
    }
}
