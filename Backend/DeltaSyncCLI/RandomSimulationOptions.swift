import ArgumentParser
import DeltaSyncSchema
import DeltaSyncTesting
import Foundation

/// `deltasync simulate --random`: random edits, deletes, restarts and partitions on the schema,
/// checked for convergence at quiet points; a failure prints its seed and a shrunk scenario.
struct RandomSimulationOptions: ParsableArguments {
    @Flag(name: .long, help: "Make a random scenario on the schema instead of reading one.")
    var random = false

    @Option(name: .long, help: "With --random: how many devices.")
    var devices = 4

    @Option(name: .long, help: "With --random: how many steps.")
    var steps = 100

    @Option(name: .long, help: "With --random: the seed (a run with the same seed makes the same scenario; random by default).")
    var seed: UInt64?

    func run(project: AmplifyProject, conflictHandler: ConflictHandlerKind?) async throws {
        let seed = seed ?? UInt64.random(in: 1...UInt64(Int64.max))
        let result = try await Simulation.runRandom(project: project, devices: devices, steps: steps, seed: seed) {
            if let conflictHandler { $0.conflictHandler = conflictHandler }
        }
        guard let minimized = result.minimized else {
            print(result.passed
                ? "passed: seed \(seed), \(devices) devices, \(steps) steps converged at every quiet point"
                : "seed \(seed): a step failed before the devices could be compared:\n"
                    + SimulationReportFormat.text.render(result.report, scenario: "random", steps: result.scenario.steps.count))
            if !result.passed { throw ExitCode(1) }
            return
        }
        let failure = result.report.results.last?.failure ?? ""
        print("""
            failed: seed \(seed): the devices did not converge: \(failure)
            replay it with --seed \(seed), or this scenario of \(minimized.steps.count) steps, which fails the same way:

            \(minimized.yaml)
            """)
        throw ExitCode(1)
    }
}
