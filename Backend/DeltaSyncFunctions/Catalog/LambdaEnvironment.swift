import Foundation

/// The environment variables a local function process gets: Lambda's own, Amplify's, the
/// function's configured values and its env file, in that order of increasing precedence.
///
/// ```swift
/// var environment = LambdaEnvironment(functionName: "calc", functionDirectory: "/app/amplify/backend/function/calc/src")
/// environment.handler = "index.handler"
/// environment.environmentName = "dev"
/// environment.envFile = "/app/amplify/backend/function/calc/.env"
/// let variables = try environment.variables()   // AWS_LAMBDA_FUNCTION_NAME=calc, ENV=dev, …
/// ```
///
/// The process gets exactly these variables and inherits nothing, as a Lambda does. `PATH` and
/// `HOME` are the server's own so that `node`, `python3` and their package caches are found.
/// The developer's AWS credentials are never passed (unlike `amplify mock`): a local function
/// must not reach real AWS resources by accident. A function that needs them gets them from
/// its `env` or env file, on purpose.
public struct LambdaEnvironment: Sendable {
    /// The function's name as Lambda reports it (`AWS_LAMBDA_FUNCTION_NAME`).
    public var functionName: String
    /// `file.export` for handler functions (`_HANDLER`); `nil` for commands.
    public var handler: String?
    /// Where the function's code is (`LAMBDA_TASK_ROOT`, `LAMBDA_RUNTIME_DIR`).
    public var functionDirectory: String
    /// `AWS_REGION`, `AWS_DEFAULT_REGION` and Amplify's `REGION`.
    public var region: String
    /// Amplify's environment name (`ENV`); `NONE` when the project has none.
    public var environmentName: String
    /// The local API, for `API_<NAME>_GRAPHQLAPI…OUTPUT`.
    public var api: API?
    /// The function's configured values (`env` in functions.json, the CloudFormation
    /// template's `Environment.Variables`); they override the computed ones.
    public var configured: [String: String]
    /// An env file (dotenv syntax) that overrides everything; skipped when it does not exist,
    /// as `amplify mock` skips a missing `.env`.
    public var envFile: String?
    /// The server's environment, read for `PATH` and `HOME` only.
    public var serverEnvironment: [String: String]

    public init(
        functionName: String,
        handler: String? = nil,
        functionDirectory: String,
        region: String = "us-east-1",
        environmentName: String = "NONE",
        api: API? = nil,
        configured: [String: String] = [:],
        envFile: String? = nil,
        serverEnvironment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.functionName = functionName
        self.handler = handler
        self.functionDirectory = functionDirectory
        self.region = region
        self.environmentName = environmentName
        self.api = api
        self.configured = configured
        self.envFile = envFile
        self.serverEnvironment = serverEnvironment
    }

    /// The complete environment of the function's process.
    ///
    /// - Throws: ``EnvFileError`` when the env file exists but cannot be read or has a
    ///   malformed line.
    public func variables(now: Date = Date()) throws(EnvFileError) -> [String: String] {
        var variables = computed(now: now)
        variables.merge(configured) { _, configured in configured }
        if let envFile, FileManager.default.fileExists(atPath: envFile) {
            for (key, value) in try DotEnvFile.load(path: envFile) {
                variables[key] = value
            }
        }
        return variables
    }

    /// Lambda's and Amplify's variables, before the function's own.
    func computed(now: Date) -> [String: String] {
        var variables: [String: String] = [
            "AWS_LAMBDA_FUNCTION_NAME": functionName,
            "AWS_LAMBDA_FUNCTION_VERSION": "$LATEST",
            "AWS_LAMBDA_FUNCTION_MEMORY_SIZE": "128",
            "AWS_LAMBDA_INITIALIZATION_TYPE": "on-demand",
            "AWS_REGION": region,
            "AWS_DEFAULT_REGION": region,
            "AWS_EXECUTION_ENV": "AWS_Lambda_deltasync",
            "AWS_LAMBDA_LOG_GROUP_NAME": "/aws/lambda/\(functionName)",
            "AWS_LAMBDA_LOG_STREAM_NAME": Self.logStreamName(now: now),
            "LAMBDA_TASK_ROOT": functionDirectory,
            "LAMBDA_RUNTIME_DIR": functionDirectory,
            "TZ": "UTC",
            "LANG": "en_US.UTF-8",
            "ENV": environmentName,
            "REGION": region,
        ]
        if let handler { variables["_HANDLER"] = handler }
        // Lambda's PATH would name /var/lang/bin; the local runtimes live where the server finds them.
        variables["PATH"] = serverEnvironment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        if let home = serverEnvironment["HOME"] { variables["HOME"] = home }
        if let api {
            let prefix = api.variablePrefix
            variables[prefix + "GRAPHQLAPIENDPOINTOUTPUT"] = api.endpoint
            variables[prefix + "GRAPHQLAPIIDOUTPUT"] = api.apiID
            if let key = api.apiKey { variables[prefix + "GRAPHQLAPIKEYOUTPUT"] = key }
        }
        return variables
    }

    /// Lambda's stream name shape, `2024/05/01/[$LATEST]<id>`, dated today (UTC).
    static func logStreamName(now: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let day = calendar.dateComponents([.year, .month, .day], from: now)
        let date = String(format: "%04d/%02d/%02d", day.year ?? 1970, day.month ?? 1, day.day ?? 1)
        return "\(date)/[$LATEST]deltasync"
    }
}
