import DeltaSyncCore
import DeltaSyncFunctions
import Foundation
import Logging

/// AppSync's APPSYNC_JS runtime, locally: resolver and function code (``JSCode``) evaluated in
/// warm `node` worker processes, the same pool machinery as a project's Node Lambda functions
/// (``LocalProcessFunction`` and its line protocol). Each worker imports a code text once and
/// keeps it; `@aws-appsync/utils` and `@aws-appsync/utils/dynamodb` resolve to DeltaSync's
/// implementation of them, which the binary carries (``JSRuntimeFiles``) and writes to a
/// temporary folder when the first handler runs. No process starts before that.
///
/// ```swift
/// let runtime = AppSyncJSRuntime(logger: logger)
/// let code = try JSCode(name: "echo.js", text: "export const request = (ctx) => ({ payload: ctx.args }); export const response = (ctx) => ctx.result;")
/// let evaluation = try await runtime.evaluate(.request, of: code, context: ["arguments": ["msg": "hi"]])
/// // evaluation.outcome == .value(["payload": ["msg": "hi"]])
/// await runtime.shutdown()
/// ```
public final class AppSyncJSRuntime: Sendable {
    /// How workers are run.
    public struct Configuration: Sendable {
        /// How many workers may evaluate at once; more concurrent handlers wait for one.
        public var maxWorkers = 4
        /// How long one handler may run before its worker is stopped (AppSync stops a whole
        /// request after 30 seconds).
        public var timeout: Duration = .seconds(30)
        /// The workers' whole environment: `node` is looked up in its `PATH`. Nothing else of
        /// the server's is passed.
        public var environment: [String: String]
        /// Where the runtime's folder is made.
        public var parentFolder: URL = FileManager.default.temporaryDirectory

        /// `PATH` and `HOME` of the server's own environment.
        public init() {
            let server = ProcessInfo.processInfo.environment
            environment = ["PATH": server["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"]
            if let home = server["HOME"] { environment["HOME"] = home }
        }
    }

    public let configuration: Configuration
    private let folder: JSRuntimeFolder
    private let workers: LocalProcessFunction

    /// What workers' stderr lines are logged as (and what `console` prints outside a handler).
    static let workerName = "appsync-js"

    public init(configuration: Configuration = Configuration(), logger: Logger) {
        self.configuration = configuration
        folder = JSRuntimeFolder(parent: configuration.parentFolder)
        workers = LocalProcessFunction(
            name: Self.workerName,
            configuration: LocalProcessConfiguration(
                command: ["node", folder.worker], workingDirectory: nil, environment: configuration.environment,
                maxProcesses: configuration.maxWorkers),
            logger: logger)
    }

    /// Calls `handler` of `code` with `context` as `ctx`.
    ///
    /// - Parameters:
    ///   - context: `ctx`'s fields: `arguments`, `source`, `identity`, `request`, `info`,
    ///     `stash`, `prev`, `env`, and in a response handler `result` and `error`.
    ///   - now: what `util.time.now*` and the time-ordered ids read.
    ///   - authType: `util.authType()`'s answer.
    /// - Throws: ``FunctionFailure``: `Code` for code that fails (a syntax error, a
    ///   `TypeError`, a missing export), with its file, line and column; `Runtime.StartError`
    ///   when `node` cannot be started; `TimeoutError` past ``Configuration/timeout``.
    public func evaluate(
        _ handler: JSHandler, of code: JSCode, context: JSONValue, now: Date = Date(), authType: String? = nil
    ) async throws(FunctionFailure) -> JSEvaluation {
        let file: String
        do {
            file = try folder.file(of: code)
        } catch {
            throw FunctionFailure(
                errorType: "Runtime.StartError",
                errorMessage: "Cannot write APPSYNC_JS code to \(folder.url.path): \(error.localizedDescription). Check that the temporary folder is writable.")
        }
        let event: JSONValue = [
            "module": .string(file), "name": .string(code.name), "handler": .string(handler.rawValue), "ctx": context,
            "now": .int(Int((now.timeIntervalSince1970 * 1000).rounded())), "authType": authType.map(JSONValue.string) ?? .null,
        ]
        let answer = try await workers.invoke(LambdaInvocation(functionName: Self.workerName, event: event, timeout: configuration.timeout))
        return JSEvaluation(answer: answer)
    }

    /// Stops every worker and waits until they are gone; a later handler starts new ones.
    public func shutdown() async {
        await workers.shutdown()
    }
}
