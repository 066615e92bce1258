import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncServer

/// A random run (``RandomScenario``) and, when a quiet point's check failed, the shortest
/// scenario found that still fails it.
public struct RandomRun: Sendable {
    public let seed: UInt64
    public let scenario: Scenario
    public let report: ScenarioReport
    /// A scenario of fewer steps that fails a check too; `nil` when every check passed.
    public let minimized: Scenario?
    /// Whether every step passed: the devices converged at every quiet point, and no conflict
    /// handler failed.
    public var passed: Bool { report.passed }
}

/// How long a random run goes on: a number of steps, or as many as fit in a duration.
public enum RandomRunLength: Sendable, Equatable {
    case steps(Int)
    case duration(Duration)
}

extension Simulation {
    /// Makes the random scenario of `seed`, runs it on a fresh simulation of `project` and,
    /// when a quiet point's ``check(timeout:)`` fails, shrinks it (``shrink(_:fails:)``),
    /// running each candidate on a fresh simulation.
    ///
    /// With ``RandomRunLength/duration(_:)`` it takes the seed's steps one after another until
    /// the time is up, then checks once more; the scenario it reports holds the steps it ran.
    ///
    /// - Parameter users: when given, every device is a user of its own name in these groups
    ///   (``DeviceIdentity/user(_:groups:)``), so that the checks cover the schema's rules;
    ///   otherwise every device has the API key.
    public static func runRandom(
        project: AmplifyProject, devices: Int, length: RandomRunLength, seed: UInt64, users groups: [String]? = nil,
        configure: @escaping (inout ServerConfiguration) -> Void = { _ in }
    ) async throws -> RandomRun {
        func run(_ scenario: Scenario) async throws -> ScenarioReport {
            try await Simulation.run(project: project, devices: scenario.devices, identities: scenario.identities, configure: configure) {
                await $0.run(scenario)
            }
        }
        func identities(_ names: [String]) -> [String: DeviceIdentity] {
            guard let groups else { return [:] }
            return Dictionary(uniqueKeysWithValues: names.map { ($0, DeviceIdentity.user($0, groups: groups)) })
        }
        var scenario: Scenario
        let report: ScenarioReport
        switch length {
        case .steps(let count):
            scenario = try RandomScenario.make(schema: project.schema, devices: devices, steps: count, seed: seed)
            scenario.identities = identities(scenario.devices)
            report = try await run(scenario)
        case .duration(let duration):
            var generator = try RandomSteps(schema: project.schema, devices: devices, seed: seed)
            let named = identities(generator.devices)
            (scenario, report) = try await Simulation.run(project: project, devices: generator.devices, identities: named, configure: configure) {
                simulation in
                let deadline = ContinuousClock.now + duration
                var steps: [ScenarioStep] = []
                var report = ScenarioReport()
                while report.passed {
                    let last = ContinuousClock.now >= deadline
                    let step = last ? ScenarioStep(line: steps.count + 1, action: .check) : generator.next()
                    steps.append(step)
                    report.results.append(await simulation.run(step))
                    if last { break }
                }
                return (Scenario(devices: generator.devices, identities: named, steps: steps), report)
            }
        }
        guard failedCheck(report) else { return RandomRun(seed: seed, scenario: scenario, report: report, minimized: nil) }
        // Timing decides some failures: a candidate counts as failing if any of three runs fails,
        // so that a step is not kept only because one run happened to pass without it.
        let minimized = try await shrink(scenario) { candidate in
            for _ in 0..<3 where failedCheck(try await run(candidate)) { return true }
            return false
        }
        return RandomRun(seed: seed, scenario: scenario, report: report, minimized: minimized)
    }

    /// ``runRandom(project:devices:length:seed:users:configure:)`` of `steps` steps.
    public static func runRandom(
        project: AmplifyProject, devices: Int, steps: Int, seed: UInt64, users groups: [String]? = nil,
        configure: @escaping (inout ServerConfiguration) -> Void = { _ in }
    ) async throws -> RandomRun {
        try await runRandom(project: project, devices: devices, length: .steps(steps), seed: seed, users: groups, configure: configure)
    }

    /// Whether the run stopped at a quiet point's `check` (or a `converge`): the devices
    /// disagreed with the server, or a conflict handler failed. A run that stopped at another
    /// step failed for another reason, which shrinking must not chase.
    static func failedCheck(_ report: ScenarioReport) -> Bool {
        guard let last = report.results.last, last.failure != nil else { return false }
        return last.step == describe(.check) || last.step == describe(.converge)
    }

    /// Removes steps from `scenario` as long as `fails` still holds for what is left: chunks of
    /// half the steps, then quarters, down to single steps, until no single step can go. The
    /// result always ends with the scenario's last step when that is a `check` or `converge`
    /// (the step a failure is seen at), else with a `check`.
    public static func shrink(_ scenario: Scenario, fails: (Scenario) async throws -> Bool) async rethrows -> Scenario {
        let ending = scenario.steps.last.flatMap { [.check, .converge].contains($0.action) ? $0.action : nil } ?? .check
        func candidate(_ steps: [ScenarioStep]) -> Scenario {
            var actions = steps.map(\.action)
            if actions.last != ending { actions.append(ending) }
            return Scenario(
                devices: scenario.devices, identities: scenario.identities, conflictHandler: scenario.conflictHandler,
                lambdaHandler: scenario.lambdaHandler,
                steps: actions.enumerated().map { ScenarioStep(line: $0.offset + 1, action: $0.element) })
        }
        var steps = scenario.steps
        if steps.last?.action == ending { steps.removeLast() }
        var chunk = max(1, steps.count / 2)
        while !steps.isEmpty {
            var start = 0
            var removedAny = false
            while start < steps.count {
                var shorter = steps
                shorter.removeSubrange(start..<min(start + chunk, steps.count))
                if try await fails(candidate(shorter)) {
                    steps = shorter
                    removedAny = true
                } else {
                    start += chunk
                }
            }
            if chunk == 1 && !removedAny { break }
            if !removedAny || chunk > steps.count { chunk = max(1, chunk / 2) }
        }
        return candidate(steps)
    }
}
