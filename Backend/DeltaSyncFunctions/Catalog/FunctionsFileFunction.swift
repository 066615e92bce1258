extension FunctionsFile {
    /// One entry of `functions.json`'s `functions`, with its paths made absolute and its
    /// defaults applied.
    ///
    /// ```swift
    /// let resize = try FunctionsFile(contentsOf: "functions.json").functions.first { $0.name == "resize" }
    /// if case .command(let words) = resize?.kind { print(words) }   // ["python3", "resize.py"]
    /// ```
    public struct Function: Sendable, Equatable {
        /// How the function runs.
        public enum Kind: Sendable, Equatable {
            /// POST the event to this URL (``HTTPFunction``).
            case url(String)
            /// Run this command and speak the local process protocol with it.
            case command([String])
            /// A Lambda handler (`file.export`) run by DeltaSync's bootstrap for the runtime.
            case handler(String, runtime: HandlerRuntime)
        }

        /// The name `@function(name:)` uses.
        public var name: String
        public var kind: Kind
        /// The working directory (commands) or the code's folder (handlers), absolute; the
        /// folder of `functions.json` unless the entry says `directory`. `nil` for URLs.
        public var directory: String?
        /// The entry's `env`.
        public var environment: [String: String]
        /// The entry's `envFile`, absolute.
        public var envFile: String?
        public var timeout: Duration
        /// At most this many processes at once; `nil` for the runner's default.
        public var maxProcesses: Int?

        public init(
            name: String, kind: Kind, directory: String? = nil, environment: [String: String] = [:], envFile: String? = nil,
            timeout: Duration = FunctionsFile.defaultTimeout, maxProcesses: Int? = nil
        ) {
            self.name = name
            self.kind = kind
            self.directory = directory
            self.environment = environment
            self.envFile = envFile
            self.timeout = timeout
            self.maxProcesses = maxProcesses
        }
    }
}
