import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncServer
import DeltaSyncTesting
import Foundation
import Testing

/// A simulation connected to a server already running: its fixture API reads the store and
/// moves the clock and faults, and the server outlives the run.
@Suite("Simulations against a running server", .serialized)
struct RemoteSimulationTests {
    static let adminKey = "dsa-remote-simulation-test"

    static func withRunningServer(_ body: (DeltaSyncTestServer, AmplifyProject) async throws -> Void) async throws {
        let project = try SimulationTests.project(.optimisticConcurrency)
        try await DeltaSyncTestServer.withServer(project: project, configure: { $0.adminKey = adminKey }) { server in
            try await body(server, project)
        }
    }

    @Test("a scenario runs against a running server from an emptied store, and the server keeps what the devices wrote")
    func scenarioAgainstRunningServer() async throws {
        try await Self.withRunningServer { running, project in
            _ = try await running.graphQL(#"mutation { createTodo(input: {id: "old", name: "from an earlier run"}) { id } }"#)
            let remote = try await RemoteSimulationServer.connect(
                url: running.graphQLURL, adminKey: Self.adminKey, schema: project.schema, reset: true)
            let text = try String(contentsOf: SimulationTests.exampleFolder.appendingPathComponent("optimistic-concurrency.yaml"), encoding: .utf8)
            var scenario = try ScenarioFile.parse(text, file: "optimistic-concurrency.yaml")
            scenario.steps += try ScenarioFile.parse(
                """
                devices: [phone, tablet]
                steps:
                  - advanceClock: 3600
                  - fault: {type: mutationError, field: createTodo, errorType: ValidationError, message: refused, count: 1}
                  - expect: {model: Todo, key: {id: old}, on: [server, phone], absent: true}
                """, file: "more.yaml"
            ).steps
            let report = try await Simulation.run(connectingTo: remote, project: project, devices: scenario.devices) { await $0.run(scenario) }
            for result in report.results where result.failure != nil { Issue.record("line \(result.line), \(result.step): \(result.failure ?? "")") }
            #expect(report.results.count == scenario.steps.count)
            // The server outlived the run, with the run's todo, its clock an hour on and the fault waiting.
            let stored = try await running.fixture.snapshot().models["Todo"]?.items ?? []
            #expect(stored.map { $0["name"] } == ["oat milk"])
            #expect(running.fixture.clock.now().timeIntervalSinceNow > 3500)
            #expect(running.fixture.activeFaults.count == 1)
        }
    }

    @Test("a running server is not restarted, IAM devices need a started one, and users need its data folder")
    func whatARunningServerCannotDo() async throws {
        try await Self.withRunningServer { running, project in
            let remote = try await RemoteSimulationServer.connect(url: running.graphQLURL, adminKey: Self.adminKey, schema: project.schema)
            let failure = try await Simulation.run(connectingTo: remote, project: project, devices: ["phone"]) { simulation in
                await simulation.run(try ScenarioFile.parse("devices: [phone]\nsteps: [restartServer]\n", file: "s.yaml")).results.first?.failure
            }
            #expect(failure?.contains("restartServer needs a server the simulation starts") == true)
            await #expect {
                try await Simulation.run(connectingTo: remote, project: project, devices: ["kiosk"], identities: ["kiosk": .iam(authenticated: true)]) { _ in }
            } throws: { "\($0)".contains("kiosk signs with IAM, which needs a server the simulation starts") }
            await #expect {
                try await Simulation.run(connectingTo: remote, project: project, devices: ["alice"], identities: ["alice": .user("alice", groups: [])]) { _ in }
            } throws: { "\($0)".contains("give the server's data folder") }
        }
        // With the folder its development issuer keeps its key in, a device signed in as a user syncs.
        let notes = try AmplifyProject.load(schemaFile: SimulationTests.exampleFolder.appendingPathComponent("notes.graphql").path)
        try await DeltaSyncTestServer.withServer(project: notes, configure: { $0.adminKey = Self.adminKey }) { running in
            let remote = try await RemoteSimulationServer.connect(
                url: running.graphQLURL, adminKey: Self.adminKey, schema: notes.schema, dataDirectory: running.dataDirectory)
            try await Simulation.run(connectingTo: remote, project: notes, devices: ["alice"], identities: ["alice": .user("alice", groups: [])]) {
                simulation in
                try await simulation.device("alice").save("Note", ["id": "a1", "text": "alice's"])
                try await simulation.converge()
            }
            let owners = try await running.fixture.snapshot().models["Note"]?.items.map { $0["owner"]?.stringValue ?? "" } ?? []
            #expect(owners.count == 1 && owners.allSatisfy { $0.hasSuffix("alice") }, "\(owners)")
        }
    }

    @Test("connecting says what is wrong: https, a wrong admin key, another schema, no server")
    func connectionMistakes() async throws {
        try await Self.withRunningServer { running, project in
            await #expect {
                try await RemoteSimulationServer.connect(url: "https://127.0.0.1:\(running.port)/graphql", adminKey: Self.adminKey, schema: project.schema)
            } throws: { "\($0)".contains("use http://127.0.0.1:\(running.port)/graphql") }
            await #expect {
                try await RemoteSimulationServer.connect(url: running.graphQLURL, adminKey: "dsa-wrong-key", schema: project.schema)
            } throws: { "\($0)".contains("/admin/client-config answered 401") }
            let other = try AmplifySchema.parse(source: "type Note @model { id: ID! text: String }", file: "notes.graphql")
            await #expect {
                try await RemoteSimulationServer.connect(url: running.graphQLURL, adminKey: Self.adminKey, schema: other)
            } throws: { "\($0)".contains("serves the models Todo, the schema given Note") }
        }
        await #expect {
            try await RemoteSimulationServer.connect(url: "http://127.0.0.1:1/graphql", adminKey: Self.adminKey, schema: try SimulationTests.project(.automerge).schema)
        } throws: { "\($0)".contains("Is the server running?") }
    }
}
