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

    @Option(name: .customLong("conflict-handler"), help: "The conflict handler of every model: automerge, optimistic or lambda (over the scenario's conflictHandler).")
    var conflictHandler: ConflictHandlerChoice?

    @Option(name: .long, help: "How to report the run: text, json or junit.")
    var format: SimulationReportFormat = .text

    @Option(name: .long, help: "The folder the devices' database files are kept in (a fresh temporary folder by default).", completion: .directory)
    var devicesDirectory: String?

    func validate() throws {
        guard (scenario == nil) == random.random else {
            throw ValidationError(random.random ? "--random makes its own scenario: pass no scenario file." : "Pass a scenario file, or --random.")
        }
    }

    func run() async throws {
        // The report is the output: the server's and the devices' notices would bury it.
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = .warning
            return handler
        }
        guard let scenario else { return try await random.run(project: try loadProject(), conflictHandler: conflictHandler?.kind) }
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
        let report = try await Simulation.run(project: project, devices: parsed.devices, directory: directory, configure: {
            $0.conflictHandler = conflictHandler?.kind ?? parsed.conflictHandler
        }) { simulation in
            let report = await simulation.run(parsed)
            if !report.passed, let snapshot = try? await simulation.server.fixture.snapshot() {
                try? Data(snapshot.json.jsonText.utf8).write(to: directory.appendingPathComponent("server-snapshot.json"))
            }
            return report
        }
        print(format.render(report, scenario: scenario, steps: parsed.steps.count))
        guard report.passed else {
            FileHandle.standardError.write(Data("deltasync: the devices' databases and the server's snapshot are kept in \(directory.path)\n".utf8))
            throw ExitCode(1)
        }
        if devicesDirectory == nil { try? FileManager.default.removeItem(at: directory) }
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
