import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncServer

/// A random run (``RandomScenario``) and, when its devices did not converge, the shortest
/// scenario found that still does not.
public struct RandomRun: Sendable {
    public let seed: UInt64
    public let scenario: Scenario
    public let report: ScenarioReport
    /// A scenario of fewer steps that fails the same way; `nil` when the run converged.
    public let minimized: Scenario?
    /// Whether the devices converged at every quiet point.
    public var passed: Bool { report.passed }
}

extension Simulation {
    /// Makes the random scenario of `seed`, runs it on a fresh simulation of `project` and,
    /// when a `converge` step fails, shrinks it (``shrink(_:fails:)``), running each candidate
    /// on a fresh simulation.
    public static func runRandom(
        project: AmplifyProject, devices: Int, steps: Int, seed: UInt64, configure: @escaping (inout ServerConfiguration) -> Void = { _ in }
    ) async throws -> RandomRun {
        let scenario = try RandomScenario.make(schema: project.schema, devices: devices, steps: steps, seed: seed)
        func run(_ scenario: Scenario) async throws -> ScenarioReport {
            try await Simulation.run(project: project, devices: scenario.devices, configure: configure) { await $0.run(scenario) }
        }
        let report = try await run(scenario)
        guard diverged(report) else { return RandomRun(seed: seed, scenario: scenario, report: report, minimized: nil) }
        let minimized = try await shrink(scenario) { candidate in diverged(try await run(candidate)) }
        return RandomRun(seed: seed, scenario: scenario, report: report, minimized: minimized)
    }

    /// Whether the run stopped at a `converge`: the devices disagreed with the server. A run
    /// that stopped at another step failed for another reason, which shrinking must not chase.
    static func diverged(_ report: ScenarioReport) -> Bool {
        guard let last = report.results.last, last.failure != nil else { return false }
        return last.step == describe(.converge)
    }

    /// Removes steps from `scenario` as long as `fails` still holds for what is left: chunks of
    /// half the steps, then quarters, down to single steps, until no single step can go. The
    /// result always ends with a `converge`, the check a failure is seen at.
    public static func shrink(_ scenario: Scenario, fails: (Scenario) async throws -> Bool) async rethrows -> Scenario {
        func candidate(_ steps: [ScenarioStep]) -> Scenario {
            var actions = steps.map(\.action)
            if actions.last != .converge { actions.append(.converge) }
            return Scenario(
                devices: scenario.devices, conflictHandler: scenario.conflictHandler,
                steps: actions.enumerated().map { ScenarioStep(line: $0.offset + 1, action: $0.element) })
        }
        var steps = scenario.steps
        if steps.last?.action == .converge { steps.removeLast() }
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
