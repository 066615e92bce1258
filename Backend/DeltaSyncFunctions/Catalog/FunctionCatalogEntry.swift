import DeltaSyncCore
import Foundation

extension FunctionCatalog {
    /// One function the server can call: what runs, for how long, and a line saying so.
    ///
    /// ```swift
    /// let echo = try FunctionCatalog.Entry(flag: "echo=http://127.0.0.1:9000/echo")
    /// let double = FunctionCatalog.Entry.closure(name: "double") { invocation in
    ///     .int((invocation.event["arguments"]["n"].intValue ?? 0) * 2)
    /// }
    /// ```
    public struct Entry: Sendable {
        /// Where an entry was configured, which decides which of two entries of one name wins.
        public enum Source: Sendable, Equatable {
            /// Given by the embedding code or a command-line flag: wins over everything.
            case explicit
            /// From `functions.json`.
            case functionsFile
            /// Found in an Amplify project.
            case amplifyProject
        }

        /// The name the entry answers to.
        public var name: String
        public var function: any LambdaFunction
        /// How long one call may take.
        public var timeout: Duration
        /// How it runs, for the start banner: `node amplify/backend/function/calc/src (index.handler)`.
        public var summary: String
        public var source: Source
        /// The process set-up, for functions the catalog runs as local processes.
        public var process: LocalProcessConfiguration?

        public init(
            name: String, function: any LambdaFunction, timeout: Duration = FunctionsFile.defaultTimeout, summary: String,
            source: Source = .explicit, process: LocalProcessConfiguration? = nil
        ) {
            self.name = name
            self.function = function
            self.timeout = timeout
            self.summary = summary
            self.source = source
            self.process = process
        }

        /// `calc → node amplify/backend/function/calc/src (index.handler)`.
        public var description: String { "\(name) → \(summary)" }

        /// A function at an HTTP endpoint (``HTTPFunction``).
        ///
        /// ```swift
        /// let echo = FunctionCatalog.Entry.url(name: "echo", url: "http://127.0.0.1:9000/echo")
        /// ```
        public static func url(name: String, url: String, timeout: Duration = FunctionsFile.defaultTimeout, source: Source = .explicit) -> Entry {
            Entry(name: name, function: HTTPFunction(url: url), timeout: timeout, summary: url, source: source)
        }

        /// A function written in Swift (``ClosureFunction``), for tests that embed the server.
        public static func closure(
            name: String, timeout: Duration = FunctionsFile.defaultTimeout,
            _ body: @escaping @Sendable (LambdaInvocation) async throws -> JSONValue
        ) -> Entry {
            Entry(name: name, function: ClosureFunction(body), timeout: timeout, summary: "Swift closure")
        }

        /// An entry from a command-line flag `NAME=URL`.
        ///
        /// ```swift
        /// let entry = try FunctionCatalog.Entry(flag: "echo-${env}=http://127.0.0.1:9000/echo")
        /// ```
        ///
        /// - Throws: ``FunctionCatalogError`` when the flag is not `NAME=http(s)://…`.
        public init(flag: String, timeout: Duration = FunctionsFile.defaultTimeout) throws(FunctionCatalogError) {
            guard let equals = flag.firstIndex(of: "="), equals != flag.startIndex else {
                throw FunctionCatalogError("--function \(flag): expected NAME=URL, such as echo=http://127.0.0.1:9000/echo.")
            }
            let name = String(flag[..<equals]).trimmingCharacters(in: .whitespaces)
            let url = String(flag[flag.index(after: equals)...]).trimmingCharacters(in: .whitespaces)
            guard url.hasPrefix("http://") || url.hasPrefix("https://"), URL(string: url)?.host != nil else {
                throw FunctionCatalogError("--function \(flag): \"\(url)\" is not an http:// or https:// URL. Write it as \(name)=http://127.0.0.1:9000/\(name), or configure a command in functions.json.")
            }
            self = .url(name: name, url: url, timeout: timeout)
        }
    }
}
