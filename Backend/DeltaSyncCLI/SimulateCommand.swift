import ArgumentParser
import DeltaSyncSchema
import DeltaSyncTesting
import Foundation
import Logging

/// `deltasync simulate SCENARIO`: runs a scenario file's devices against a server of the
/// project, and exits 1 when a step fails.
struct SimulateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Run simulated offline devices against a server of your schema, as a scenario file says.",
        discussion: """
            Each device is a real DeltaSync DataStore on a database file of its own, behind a network link \
            the scenario cuts and restores. The scenario (YAML or JSON) names the devices and lists the \
            steps: save, delete, offline, online, restart, advanceClock, converge, expect, expectConflict, \
            expectEmptyOutbox. See Examples/simulations.
            """
    )

    @Argument(help: "The scenario file (YAML or JSON); none with --random.", completion: .file(extensions: ["yaml", "yml", "json"]))
    var scenario: String?

    @OptionGroup var random: RandomSimulationOptions

    @OptionGroup var input: SchemaInput

    @OptionGroup(title: "A running server") var server: SimulationServerOptions

    @OptionGroup(title: "Functions") var functions: FunctionOptions

    @Option(name: .customLong("conflict-handler"), help: "The conflict handler of every model: automerge, optimistic or lambda (over the scenario's conflictHandler).")
    var conflictHandler: ConflictHandlerChoice?

    @Option(
        name: .customLong("lambda-handler"),
        help: "Your Lambda conflict handler, a Node (.js) or Python (.py) file exporting `handler`, for models with LAMBDA (over the scenario's lambdaHandler).",
        completion: .file(extensions: ["js", "cjs", "mjs", "py"]))
    var lambdaHandler: String?

    @Option(
        name: .customLong("conflict-handler-function"),
        help: "A function of the project (functions.json, --function or its Amplify functions) that decides LAMBDA conflicts (over the scenario's lambdaHandler).")
    var conflictHandlerFunction: String?

    @Option(name: .long, help: "Write the run's timeline (every step, each device's sync events and errors, the conflict log) to this HTML file.", completion: .file())
    var timeline: String?

    @Flag(name: .long, help: "After the run, keep its server up and show the run's timeline in the console (the Simulation panel); Enter stops it.")
    var console = false

    @Option(name: .long, help: "How to report the run: text, json or junit.")
    var format: SimulationReportFormat = .text

    @Option(name: .long, help: "The folder the devices' database files are kept in (a fresh temporary folder by default).", completion: .directory)
    var devicesDirectory: String?

    func validate() throws {
        guard (scenario == nil) == random.random else {
            throw ValidationError(random.random ? "--random makes its own scenario: pass no scenario file." : "Pass a scenario file, or --random.")
        }
        try server.validate(random: random.random, console: console, handlerFlags: conflictHandler != nil || lambdaHandler != nil || conflictHandlerFunction != nil)
        if lambdaHandler != nil, conflictHandlerFunction != nil {
            throw ValidationError("--lambda-handler and --conflict-handler-function both name the conflict handler: pass one.")
        }
    }

    func run() async throws {
        // The report is the output: the server's and the devices' notices would bury it.
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = .warning
            return handler
        }
        guard let scenario else { return try await runRandom() }
        let text: String
        do {
            text = try String(contentsOfFile: scenario, encoding: .utf8)
        } catch {
            throw ValidationError("Cannot read the scenario \(scenario): \(error.localizedDescription)")
        }
        let parsed: Scenario
        do {
            parsed = try ScenarioFile.parse(text, file: scenario)
        } catch {
            throw ValidationError("\(error)")
        }
        let project = try loadProject()
        // Kept when the run fails (or when named): each device's database and the server's data.
        let directory = devicesDirectory.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("deltasync-simulation-\(UUID().uuidString)")
        let report: ScenarioReport
        if let url = server.url {
            report = try await runConnected(to: url, scenario: parsed, project: project, directory: directory) { simulation in
                try await finish(simulation, scenario: parsed, directory: directory, adminKey: nil)
            }
        } else {
            report = try await runStarted(scenario: parsed, project: project, directory: directory)
        }
        if !console { print(format.render(report, scenario: scenario, steps: parsed.steps.count)) }
        guard report.passed else {
            FileHandle.standardError.write(Data(
                "deltasync: the devices' databases, the server's snapshot and the run's timeline (timeline.html) are kept in \(directory.path)\n".utf8))
            throw ExitCode(1)
        }
        if devicesDirectory == nil { try? FileManager.default.removeItem(at: directory) }
    }

    /// A server of the project, started for the run, the flags' handlers over the scenario's.
    private func runStarted(scenario parsed: Scenario, project: AmplifyProject, directory: URL) async throws -> ScenarioReport {
        let applyProject = try projectConfiguration(project)
        var overridden = parsed
        if let conflictHandler { overridden.conflictHandler = conflictHandler.kind }
        if let lambdaHandler { overridden.lambdaHandler = URL(fileURLWithPath: lambdaHandler).standardizedFileURL.path }
        if conflictHandlerFunction != nil { overridden.lambdaHandler = nil }
        let scenarioDirectory = URL(fileURLWithPath: scenario ?? ".").deletingLastPathComponent()
        let adminKey = "dsa-simulate-\(UUID().uuidString.prefix(8).lowercased())"
        return try await Simulation.run(
            scenario: overridden, project: project, scenarioDirectory: scenarioDirectory, directory: directory,
            configure: { configuration in
                applyProject(&configuration)
                if console { configuration.adminKey = adminKey }
            }
        ) { simulation in
            try await finish(simulation, scenario: parsed, directory: directory, adminKey: adminKey)
        }
    }

    /// Runs the scenario's steps; writes the timeline where asked, and with the server's
    /// snapshot into `directory` when a step failed; with `--console`, shows the timeline there.
    private func finish(_ simulation: Simulation, scenario parsed: Scenario, directory: URL, adminKey: String?) async throws -> ScenarioReport {
        let title = scenario ?? "scenario"
        let report = await simulation.run(parsed)
        let snapshot = try? await simulation.server.snapshot()
        let page = simulation.timeline.html(title: title, conflicts: snapshot?.conflicts ?? [])
        if !report.passed {
            if let snapshot { try? Data(snapshot.json.jsonText.utf8).write(to: directory.appendingPathComponent("server-snapshot.json")) }
            try? Data(page.utf8).write(to: directory.appendingPathComponent("timeline.html"))
        }
        if let timeline { try Data(page.utf8).write(to: URL(fileURLWithPath: timeline)) }
        if console, let server = simulation.localServer, let adminKey {
            // The report first: the run is over, only its server stays up.
            print(format.render(report, scenario: title, steps: parsed.steps.count))
            await Self.showInConsole(page, server: server, adminKey: adminKey)
        }
        return report
    }

    /// `--console`: the report first, then the console's address; the server stays up until a
    /// line (Enter) or the end of standard input.
    private static func showInConsole(_ page: String, server: DeltaSyncTestServer, adminKey: String) async {
        server.fixture.publishSimulationTimeline(page)
        let address = "http://127.0.0.1:\(server.port)/#apiKey=\(server.apiKey)&adminKey=\(adminKey)"
        FileHandle.standardError.write(Data(
            "deltasync: the run's server is up; its console shows the run's timeline (Sync inspector, Simulation): \(address)\n"
                .utf8))
        FileHandle.standardError.write(Data("deltasync: press Enter to stop it\n".utf8))
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Thread {
                _ = readLine()
                done.resume()
            }.start()
        }
    }

    /// `--random`: the project's server with the conflict handler and Lambda file given.
    private func runRandom() async throws {
        let project = try loadProject()
        let applyProject = try projectConfiguration(project)
        let path = lambdaHandler.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        let lambda = try path.map { path in
            try ScenarioLambdaHandler(
                file: URL(fileURLWithPath: path),
                bootstrapDirectory: FileManager.default.temporaryDirectory.appendingPathComponent("deltasync-simulation-functions"))
        }
        let kind = conflictHandler?.kind
        do {
            try await random.run(project: project, printed: (kind, path)) { configuration in
                applyProject(&configuration)
                if let kind { configuration.conflictHandler = kind }
                if let lambda { configuration.lambdaConflictHandler = lambda.conflictHandler }
            }
        } catch {
            await lambda?.shutdown()
            throw error
        }
        await lambda?.shutdown()
    }

    private func loadProject() throws -> AmplifyProject {
        do {
            return try input.load()
        } catch {
            throw SchemaFailure(error: error)
        }
    }
}

extension SimulationReportFormat: ExpressibleByArgument {}
