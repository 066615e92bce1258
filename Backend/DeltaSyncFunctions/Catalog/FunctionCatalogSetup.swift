import Foundation

extension FunctionCatalog {
    /// What the server tells the catalog about the place its local functions run in.
    ///
    /// ```swift
    /// let setup = FunctionCatalog.Setup(bootstrapDirectory: dataDirectory + "/functions", region: "eu-west-1")
    /// ```
    public struct Setup: Sendable {
        /// Where the runtimes' bootstrap scripts are written (such as `<data dir>/functions`).
        public var bootstrapDirectory: String
        /// The functions' region; `nil` for functions.json's `region` or the Amplify project's,
        /// else `us-east-1`.
        public var region: String?
        /// Amplify's environment name; `nil` for the Amplify project's, else `NONE`.
        public var environmentName: String?
        /// The local API, passed to functions as Amplify's `API_<NAME>_…OUTPUT` variables.
        public var api: LambdaEnvironment.API?
        /// The server's environment, for `PATH` and `HOME` of function processes.
        public var serverEnvironment: [String: String]
        /// Paths in descriptions are shown relative to this folder (the current one by default).
        public var displayDirectory: String

        public init(
            bootstrapDirectory: String,
            region: String? = nil,
            environmentName: String? = nil,
            api: LambdaEnvironment.API? = nil,
            serverEnvironment: [String: String] = ProcessInfo.processInfo.environment,
            displayDirectory: String = FileManager.default.currentDirectoryPath
        ) {
            self.bootstrapDirectory = bootstrapDirectory
            self.region = region
            self.environmentName = environmentName
            self.api = api
            self.serverEnvironment = serverEnvironment
            self.displayDirectory = displayDirectory
        }

        /// `path` relative to ``displayDirectory`` when it is inside it.
        func display(_ path: String) -> String {
            let base = URL(fileURLWithPath: displayDirectory).standardizedFileURL.path
            let path = URL(fileURLWithPath: path).standardizedFileURL.path
            if path == base { return "." }
            let prefix = base.hasSuffix("/") ? base : base + "/"
            return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
        }
    }
}
