import DeltaSyncSchema
import DeltaSyncServer
import Foundation
import Logging

/// A scenario's Lambda conflict handler file, run as a local Node or Python process the way
/// Lambda runs it: `exports.handler` / `def handler(event, context)` gets AppSync's conflict
/// payload and answers `{"action": "RESOLVE", "item": …}`, `REJECT` or `REMOVE`.
///
/// ```swift
/// // let handler = try ScenarioLambdaHandler(file: URL(fileURLWithPath: "conflict-handler.js"), bootstrapDirectory: folder)
/// // configuration.lambdaConflictHandler = handler.conflictHandler
/// // ...
/// // await handler.shutdown()
/// ```
public struct ScenarioLambdaHandler: Sendable {
    /// The process it runs in, warm between calls.
    public let function: LocalProcessFunction

    /// The runtime a handler file runs on, by its extension; `nil` for any other file.
    public static func runtime(of path: String) -> HandlerRuntime? {
        switch URL(fileURLWithPath: path).pathExtension {
        case "js", "cjs", "mjs": .node
        case "py": .python
        default: nil
        }
    }

    /// - Throws: ``SimulationError`` when the file does not exist or is not a `.js`, `.cjs`,
    ///   `.mjs` or `.py` file.
    public init(file: URL, bootstrapDirectory: URL) throws {
        guard let runtime = Self.runtime(of: file.path) else {
            throw SimulationError("The Lambda handler \(file.path) is neither a Node (.js, .cjs, .mjs) nor a Python (.py) file.")
        }
        guard FileManager.default.fileExists(atPath: file.path) else {
            throw SimulationError("The Lambda handler \(file.path) does not exist.")
        }
        // The bootstraps find the module's file by its name without the extension.
        let module = file.deletingPathExtension().lastPathComponent
        guard !module.contains(".") else {
            throw SimulationError("The Lambda handler \(file.lastPathComponent) must have no dot in its name before the extension.")
        }
        let handler = "\(module).handler"
        let command: [String]
        do {
            command = try runtime.command(
                handler: handler, sourceDirectory: file.deletingLastPathComponent().path, bootstrapDirectory: bootstrapDirectory.path)
        } catch {
            throw SimulationError("The Lambda handler \(file.path) cannot be started: \(error.errorMessage)")
        }
        let environment = ProcessInfo.processInfo.environment
        var variables = ["PATH": environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin", "AWS_REGION": "us-east-1"]
        variables["HOME"] = environment["HOME"]
        function = LocalProcessFunction(
            name: module, configuration: LocalProcessConfiguration(command: command, workingDirectory: file.deletingLastPathComponent().path, environment: variables, maxProcesses: 2),
            logger: Logger(label: "deltasync.simulation.lambda"))
    }

    /// The handler as the server calls it.
    public var conflictHandler: LambdaConflictHandler {
        LambdaConflictHandlers.function(function, name: function.name)
    }

    /// Stops its processes.
    public func shutdown() async { await function.shutdown() }
}

extension Simulation {
    /// Runs `body` on a simulation of `scenario`'s devices against a server of `project` set up
    /// as the scenario says (its `conflictHandler`, its `lambdaHandler` file found in
    /// `scenarioDirectory`), then `configure`'s changes on top.
    ///
    /// ```swift
    /// // let report = try await Simulation.run(scenario: scenario, project: project, scenarioDirectory: folder) { await $0.run(scenario) }
    /// ```
    public static func run<T: Sendable>(
        scenario: Scenario, project: AmplifyProject, scenarioDirectory: URL, directory: URL? = nil,
        configure: (inout ServerConfiguration) -> Void = { _ in }, _ body: (Simulation) async throws -> T
    ) async throws -> T {
        let lambda = try scenario.lambdaHandler.map { path in
            try ScenarioLambdaHandler(
                file: URL(fileURLWithPath: path, relativeTo: scenarioDirectory).standardizedFileURL,
                bootstrapDirectory: URL(fileURLWithPath: DeltaSyncTestServer.defaultDataDirectory).appendingPathComponent("functions"))
        }
        do {
            let result = try await run(
                project: project, devices: scenario.devices, identities: scenario.identities, syncExpressions: scenario.syncExpressions,
                directory: directory, configure: { configuration in
                if let handler = scenario.conflictHandler { configuration.conflictHandler = handler }
                if let lambda { configuration.lambdaConflictHandler = lambda.conflictHandler }
                configure(&configuration)
            }, body)
            await lambda?.shutdown()
            return result
        } catch {
            await lambda?.shutdown()
            throw error
        }
    }
}
