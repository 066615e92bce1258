// Simulated devices at scale (#41): N devices (100) make E edits each (100) to 20 shared todos
// under Automerge, in rounds of 10 edits per device. Every other round half the devices are
// offline while they edit (a partition), which then heals; the rounds between keep every device
// online, as the same-run baseline. Prints the time from the heal (or the last edit) until every
// device holds what the server holds, p50 and p99 over the rounds, and the run's wall time.
//
//   swift run -c release SimulationBenchmark [devices] [edits]
import BenchmarkSupport
import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncTesting
import Foundation

let numbers = BenchmarkSupport.numberArguments
let deviceCount = numbers.first ?? 100
let editsPerDevice = numbers.dropFirst().first ?? 100
let editsPerRound = 10
let rounds = max(2, editsPerDevice / editsPerRound)
let todos = 20

let project = AmplifyProject(
    schema: try AmplifySchema.parse(source: "type Todo @model { id: ID! name: String! done: Boolean }", file: "todos.graphql"),
    sync: SyncConfiguration(projectHandler: .automerge), schemaFiles: ["todos.graphql"])

/// The converge times after each partitioned round and after each round with every device online.
nonisolated func measure(
    project: AmplifyProject, deviceCount: Int, rounds: Int, editsPerRound: Int, todos: Int
) async throws -> (partitioned: [Double], online: [Double]) {
    try await Simulation.run(project: project, devices: (1...deviceCount).map { "d\($0)" }) { simulation in
        let devices = simulation.devices
        for n in 0..<todos { try await devices[0].save("Todo", ["id": .string("t\(n)"), "name": .string("todo \(n)")]) }
        try await simulation.converge(timeout: .seconds(600))
        var partitioned: [Double] = [], online: [Double] = []
        for round in 0..<rounds {
            let partition = round % 2 == 0
            if partition { for (index, device) in devices.enumerated() where index % 2 == 0 { device.link.goOffline() } }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (index, device) in devices.enumerated() {
                    group.addTask {
                        for edit in 0..<editsPerRound {
                            let id = "t\((index * 7 + edit) % todos)"
                            try await device.save("Todo", ["id": .string(id), "name": .string("\(device.name) round \(round) edit \(edit)")])
                        }
                    }
                }
                try await group.waitForAll()
            }
            let healed = ContinuousClock.now
            try await simulation.converge(timeout: .seconds(600))
            let milliseconds = BenchmarkReport.milliseconds(ContinuousClock.now - healed)
            if partition { partitioned.append(milliseconds) } else { online.append(milliseconds) }
        }
        return (partitioned, online)
    }
}

func figures(_ values: [Double]) -> String {
    String(format: "p50 %.0f ms, p99 %.0f ms (%d rounds)", BenchmarkReport.percentile(values, 0.5), BenchmarkReport.percentile(values, 0.99), values.count)
}

BenchmarkReport.say("\(deviceCount) simulated devices x \(editsPerDevice) edits of \(todos) shared todos, \(rounds) rounds of \(editsPerRound)")
let started = ContinuousClock.now
let (partitioned, online) = try await measure(
    project: project, deviceCount: deviceCount, rounds: rounds, editsPerRound: editsPerRound, todos: todos)
let wall = BenchmarkReport.milliseconds(ContinuousClock.now - started) / 1000
BenchmarkReport.row("converge after a partition heals", figures(partitioned))
BenchmarkReport.row("baseline: converge after edits with every device online", figures(online))
BenchmarkReport.row("wall time of the run", String(format: "%.1f s", wall))
