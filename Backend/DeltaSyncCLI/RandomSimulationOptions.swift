import ArgumentParser
import DeltaSyncSchema
import DeltaSyncServer
import DeltaSyncTesting
import Foundation

/// `deltasync simulate --random`: random edits, deletes, restarts and partitions on the schema,
/// checked at quiet points (convergence, conflict handler failures); a failure prints its seed and a shrunk scenario.
struct RandomSimulationOptions: ParsableArguments {
    @Flag(name: .long, help: "Make a random scenario on the schema instead of reading one.")
    var random = false

    @Option(name: .long, help: "With --random: how many devices.")
    var devices = 4

    @Option(name: .long, help: "With --random: how many steps (100 unless --seconds is given).")
    var steps: Int?

    @Option(name: .long, help: "With --random: take random steps for this many seconds instead of a number of steps.")
    var seconds: Int?

    @Option(name: .long, help: "With --random: the seed (a run with the same seed makes the same scenario; random by default).")
    var seed: UInt64?

    @Flag(name: .long, help: "With --random: every device is a development user of its own name (device1, device2, ...), so that the checks cover your schema's @auth rules.")
    var users = false

    @Option(name: .long, help: "With --users: the groups every user is in, comma-separated (team,admins).")
    var groups: String?

    private var groupList: [String] {
        (groups ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    func validate() throws {
        guard users || groups == nil else { throw ValidationError("--groups goes with --users.") }
        guard random || !users else { throw ValidationError("--users goes with --random; a scenario file names each device's identity.") }
        guard random || (steps == nil && seconds == nil) else { throw ValidationError("--steps and --seconds go with --random.") }
        guard steps == nil || seconds == nil else { throw ValidationError("Pass --steps or --seconds, not both.") }
        if let steps, steps < 1 { throw ValidationError("--steps must be at least 1.") }
        if let seconds, seconds < 1 { throw ValidationError("--seconds must be at least 1.") }
        guard devices >= 1 else { throw ValidationError("--devices must be at least 1.") }
    }

    /// - Parameter printed: what the printed scenario says of its server (the conflict handler
    ///   and Lambda file given on the command line), so that it replays without them.
    func run(project: AmplifyProject, printed: (ConflictHandlerKind?, String?), configure: @escaping (inout ServerConfiguration) -> Void) async throws {
        let seed = seed ?? UInt64.random(in: 1...UInt64(Int64.max))
        let length: RandomRunLength = seconds.map { .duration(.seconds($0)) } ?? .steps(steps ?? 100)
        let result = try await Simulation.runRandom(
            project: project, devices: devices, length: length, seed: seed, users: users ? groupList : nil, configure: configure)
        // The random steps the run took, not counting its final check.
        let steps = max(0, result.scenario.steps.count - 1)
        guard var minimized = result.minimized else {
            print(result.passed
                ? "passed: seed \(seed), \(devices) devices, \(steps) steps: converged at every quiet point, and no conflict handler failed"
                : "seed \(seed): a step failed before the devices could be compared:\n"
                    + SimulationReportFormat.text.render(result.report, scenario: "random", steps: result.scenario.steps.count))
            if !result.passed { throw ExitCode(1) }
            return
        }
        (minimized.conflictHandler, minimized.lambdaHandler) = printed
        let failure = result.report.results.last?.failure ?? ""
        // A timed run's steps are the seed's first ones: as many steps replay it.
        let replay = seconds == nil ? "--seed \(seed)" : "--seed \(seed) --steps \(max(1, result.report.results.count - 1))"
        print("""
            failed: seed \(seed), after \(result.report.results.count) steps: \(failure)
            replay it with \(replay)\(users ? " --users" + (groups.map { " --groups \($0)" } ?? "") : ""), or this scenario of \(minimized.steps.count) steps, which fails the same way:

            \(minimized.yaml)
            """)
        throw ExitCode(1)
    }
}
