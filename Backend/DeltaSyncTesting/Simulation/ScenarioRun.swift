import DeltaSyncClient
import DeltaSyncCore
import DeltaSyncFixture
import DeltaSyncStorage
import Foundation

/// What a scenario's run did, step by step, up to the step that failed.
public struct ScenarioReport: Sendable {
    public struct StepResult: Sendable {
        /// The step's line in the scenario file.
        public let line: Int
        /// The step as text (`save phone Todo {"id":"t1"}`).
        public let step: String
        public let duration: Duration
        /// Why the step failed; `nil` when it passed.
        public let failure: String?
    }

    public var results: [StepResult] = []
    /// Whether every step passed.
    public var passed: Bool { results.allSatisfy { $0.failure == nil } }
}

extension Simulation {
    /// Runs `scenario`'s steps in order and stops at the first that fails.
    public func run(_ scenario: Scenario) async -> ScenarioReport {
        var report = ScenarioReport()
        for step in scenario.steps {
            let result = await run(step)
            report.results.append(result)
            if result.failure != nil { break }
        }
        return report
    }

    /// Runs one step; its result says whether it failed and why.
    public func run(_ step: ScenarioStep) async -> ScenarioReport.StepResult {
        let clock = ContinuousClock()
        let started = clock.now
        timeline.record("steps", .step, "line \(step.line): \(Self.describe(step.action))")
        var failure: String?
        do {
            try await perform(step.action)
        } catch {
            failure = "\(error)"
            timeline.record("steps", .failure, "\(error)")
        }
        return .init(line: step.line, step: Self.describe(step.action), duration: clock.now - started, failure: failure)
    }

    private func perform(_ action: ScenarioStep.Action) async throws {
        switch action {
        case .save(let name, let model, let item, let condition):
            try await device(name).save(model, item, where: try condition.map { try QueryPredicate(filter: $0) })
        case .delete(let name, let model, let key):
            try await device(name).delete(model, key: key)
        case .offline(let names):
            for name in names { try device(name).link.goOffline() }
        case .online(let names):
            for name in names { try device(name).link.goOnline() }
        case .restart(let name):
            try await device(name).restart()
        case .advanceClock(let seconds):
            try await server.advanceClock(by: seconds)
        case .converge:
            try await converge()
        case .check:
            try await check()
        case .restartServer:
            try await restartServer()
        case .slow(let name, let milliseconds):
            try device(name).link.slow(by: .milliseconds(milliseconds))
        case .dropConnections(let name):
            try await device(name).link.dropConnectionsAndWait()
        case .fault(let json):
            try await server.addFault(json)
        case .clearFaults:
            try await server.clearFaults()
        case .expect(let model, let key, let places, let fields):
            for place in places { try await expect(model, key: key, on: place, fields: fields) }
        case .expectConflict(let model, let outcome):
            let conflicts = try await conflicts().filter { $0.model == model }
            guard conflicts.contains(where: { $0.outcome == outcome }) else {
                throw SimulationError("the conflict log holds no \(outcome) conflict of \(model); it holds \(conflicts.map(\.outcome)).")
            }
        case .waitForEmptyOutbox(let name):
            try await device(name).waitForEmptyOutbox()
        case .changeSyncExpressions(let name, let filters, let clear):
            try await device(name).changeSyncExpressions(to: filters, clear: clear)
        case .expectEmptyOutbox(let name):
            let pending = try await device(name).pendingCount()
            guard pending == 0 else { throw SimulationError("\(name)'s outbox holds \(pending) change(s).") }
        }
    }

    private func expect(_ model: String, key: Item, on place: String, fields: Item?) async throws {
        let items = place == "server" ? try await serverItems(model) : try await device(place).items(model)
        let found = items.first { item in key.allSatisfy { item[$0.key] == $0.value } }
        guard let fields else {
            guard let found else { return }
            throw SimulationError("\(place) holds \(model) \(JSONValue.object(key).jsonText), expected absent: \(JSONValue.object(found).jsonText)")
        }
        guard let found else { throw SimulationError("\(place) holds no \(model) \(JSONValue.object(key).jsonText).") }
        for (name, value) in fields where (found[name] ?? .null) != value {
            throw SimulationError("\(place)'s \(model) \(JSONValue.object(key).jsonText) has \(name) \((found[name] ?? .null).jsonText), expected \(value.jsonText).")
        }
    }

    static func describe(_ action: ScenarioStep.Action) -> String {
        switch action {
        case .save(let device, let model, let item, let condition):
            return "save \(device) \(model) \(JSONValue.object(item).jsonText)" + (condition.map { " if \($0.jsonText)" } ?? "")
        case .delete(let device, let model, let key): return "delete \(device) \(model) \(JSONValue.object(key).jsonText)"
        case .offline(let names): return "offline \(names.joined(separator: ", "))"
        case .online(let names): return "online \(names.joined(separator: ", "))"
        case .restart(let name): return "restart \(name)"
        case .advanceClock(let seconds): return "advance the server's clock \(seconds) s"
        case .converge: return "converge"
        case .restartServer: return "restart the server"
        case .slow(let device, let milliseconds): return "slow \(device)'s network by \(milliseconds) ms"
        case .dropConnections(let device): return "drop \(device)'s connections"
        case .fault(let fault): return "server fault \(fault.jsonText)"
        case .clearFaults: return "clear the server's faults"
        case .check: return "check: converge, no conflict handler failed, each device reads only what it may"
        case .expect(let model, let key, let places, let fields):
            return "expect \(model) \(JSONValue.object(key).jsonText) on \(places.joined(separator: ", ")) "
                + (fields.map { JSONValue.object($0).jsonText } ?? "absent")
        case .expectConflict(let model, let outcome): return "expect a \(outcome) conflict of \(model)"
        case .expectEmptyOutbox(let name): return "expect \(name)'s outbox empty"
        case .waitForEmptyOutbox(let name): return "wait until \(name) sent its outbox"
        case .changeSyncExpressions(let name, let filters, let clear):
            return "\(name) syncs \(JSONValue.object(filters).jsonText)" + (clear ? ", its store cleared" : "")
        }
    }
}
