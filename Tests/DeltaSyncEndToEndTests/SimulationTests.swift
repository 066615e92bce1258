import DeltaSyncClient
import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncServer
import DeltaSyncTesting
import Foundation
import Testing

/// `Simulation`: devices of a schema read at run time (no generated models), their networks cut
/// and restored, their processes restarted, and convergence checked against the server.
@Suite("Simulated devices", .serialized)
struct SimulationTests {
    static let schema = """
        type Todo @model {
          id: ID!
          name: String!
          done: Boolean
        }
        """

    static func project(_ handler: ConflictHandlerKind) throws -> AmplifyProject {
        AmplifyProject(
            schema: try AmplifySchema.parse(source: schema, file: "todos.graphql"),
            sync: SyncConfiguration(projectHandler: handler), schemaFiles: ["todos.graphql"])
    }

    @Test("two devices editing one item offline converge under Automerge, and the conflict log holds the merge")
    func offlineEditsConverge() async throws {
        try await Simulation.run(project: try Self.project(.automerge), devices: ["phone", "tablet"]) { simulation in
            let (phone, tablet) = (try simulation.device("phone"), try simulation.device("tablet"))
            try await phone.save("Todo", ["id": "t1", "name": "milk"])
            try await simulation.converge()
            #expect(try await tablet.items("Todo").map { $0["name"] } == ["milk"])

            phone.link.goOffline()
            tablet.link.goOffline()
            try await phone.save("Todo", ["id": "t1", "name": "oat milk"])
            try await tablet.save("Todo", ["id": "t1", "done": true])
            try await simulation.converge()

            // Every device holds the server's item (converge checked it); the second edit to
            // arrive was merged into the first. A resend after a cut connection can make one
            // more merge, so versions are at least, not exactly, 3.
            let stored = try #require(try await simulation.serverItems("Todo").first)
            #expect(stored["done"] == true)
            #expect((stored["_version"]?.intValue ?? 0) >= 3)
            for device in [phone, tablet] {
                #expect(try await device.items("Todo").map { $0["_version"] } == [stored["_version"]], "\(device.name)")
            }
            let conflicts = try await simulation.conflicts()
            #expect(!conflicts.isEmpty && conflicts.allSatisfy { $0.outcome == "merged" })
            #expect(conflicts.first?.model == "Todo")
        }
    }

    @Test("a device restarted with changes in its outbox sends them once it is back online")
    func restartKeepsTheOutbox() async throws {
        try await Simulation.run(project: try Self.project(.optimisticConcurrency), devices: ["phone", "laptop"]) { simulation in
            let phone = try simulation.device("phone")
            phone.link.goOffline()
            try await phone.save("Todo", ["id": "t1", "name": "written offline"])
            try await phone.restart(start: false)
            #expect(try await phone.pendingCount() == 1, "the outbox is in the device's file")
            phone.link.goOnline()
            try await phone.start()
            try await simulation.converge()
            #expect(try await simulation.serverItems("Todo").map { $0["name"] } == ["written offline"])
            #expect(try await simulation.device("laptop").items("Todo").map { $0["name"] } == ["written offline"])
        }
    }

    @Test("an unknown device, an unknown model and an item without its key are errors that say what there is")
    func mistakesAreNamed() async throws {
        try await Simulation.run(project: try Self.project(.automerge), devices: ["phone"]) { simulation in
            #expect(throws: SimulationError.self) { try simulation.device("watch") }
            let phone = try simulation.device("phone")
            await #expect { try await phone.save("Note", ["id": "n1"]) } throws: { error in
                "\(error)".contains("Note is not a model of the schema. Models: Todo.")
            }
            await #expect { try await phone.save("Todo", ["name": "no id"]) } throws: { error in
                "\(error)".contains("needs its key field id")
            }
        }
    }

    static var exampleFolder: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Examples/simulations")
    }

    static let examples = [
        "offline-edits.yaml", "optimistic-concurrency.yaml", "offline-past-the-delta-log.yaml", "lambda-handler.yaml", "owner-shared-group.yaml",
        "server-restart.yaml", "flaky-network.yaml", "selective-sync.yaml",
    ]
    /// The schema each example runs on (`todos.graphql` unless named here).
    static let schemas = ["owner-shared-group.yaml": "notes.graphql", "selective-sync.yaml": "tasks.graphql"]

    @Test("every example scenario runs to its end", .serialized, .timeLimit(.minutes(2)), arguments: examples)
    func exampleScenarioRuns(name: String) async throws {
        let scenario = try ScenarioFile.parse(
            try String(contentsOf: Self.exampleFolder.appendingPathComponent(name), encoding: .utf8), file: name)
        let schemaFile = Self.schemas[name] ?? "todos.graphql"
        let schema = try String(contentsOf: Self.exampleFolder.appendingPathComponent(schemaFile), encoding: .utf8)
        let project = AmplifyProject(schema: try AmplifySchema.parse(source: schema, file: schemaFile), schemaFiles: [schemaFile])
        let (report, timeline) = try await Simulation.run(scenario: scenario, project: project, scenarioDirectory: Self.exampleFolder) {
            simulation in (await simulation.run(scenario), simulation.timeline.text)
        }
        #expect(report.results.count == scenario.steps.count)
        for result in report.results where result.failure != nil {
            Issue.record("\(name) line \(result.line), \(result.step): \(result.failure ?? "")\n\(timeline)")
        }
    }

    @Test("the example folder holds only scenarios this suite runs")
    func everyExampleIsRun() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.exampleFolder.path).filter { $0.hasSuffix(".yaml") }
        #expect(files.sorted() == Self.examples.sorted())
    }

    @Test("a scenario file's mistakes are refused at their line, saying what was expected", arguments: [
        ("devices: [phone]\nsteps:\n  - converge\n  - jump: phone\n", "s.yaml:4: jump is not a step. Steps: save, delete"),
        ("devices: [phone]\nsteps:\n  - offline: watch\n", "s.yaml:3: no device is named watch. Devices: phone."),
        ("devices: [phone]\nsteps:\n  - save: {device: phone, model: Todo}\n", "s.yaml:3: save needs `item`."),
        ("devices: [phone]\nsteps:\n  - save: {device: phone, model: Todo, item: {id: t1}, colour: red}\n",
         "s.yaml:3: colour is not a field of save. Fields: device, model, item, condition."),
        ("devices: [phone, server]\nsteps: []\n", "s.yaml:1: device names must differ from each other and from `server`."),
        ("steps: [converge]\n", "s.yaml:1: the scenario has no devices"),
        ("devices: [phone]\nsteps:\n  - advanceClock: soon\n", "s.yaml:3: advanceClock takes a number of seconds above 0."),
        ("devices: [phone]\nconflictHandler: newest\nsteps: []\n", "s.yaml:2: conflictHandler is one of automerge, lambda, optimistic."),
        ("devices: [phone\nsteps: []\n", "s.yaml:2: not valid YAML or JSON"),
        ("{\"devices\": [\"phone\"],\n \"steps\": [\"converge\",\n  {\"restart\": \"tablet\"}]}\n", "s.yaml:3: no device is named tablet."),
    ])
    func scenarioMistakes(text: String, message: String) {
        #expect { try ScenarioFile.parse(text, file: "s.yaml") } throws: { error in
            "\(error)".hasPrefix(message)
        }
    }
}

/// Devices signed in as users: each converges on what the server syncs to it, and a check
/// asks the server, as each device, whether it may read what the device holds.
@Suite("Simulated devices with identities")
struct SimulatedIdentityTests {
    static var notes: AmplifyProject {
        get throws {
            let file = SimulationTests.exampleFolder.appendingPathComponent("notes.graphql")
            return AmplifyProject(
                schema: try AmplifySchema.parse(source: try String(contentsOf: file, encoding: .utf8), file: "notes.graphql"),
                schemaFiles: ["notes.graphql"])
        }
    }

    static let team: [String: DeviceIdentity] = ["alice": .user("alice", groups: ["team"]), "eve": .user("eve", groups: [])]

    @Test("a device holding a note its user may not read fails the check, which names the device, its identity and the note")
    func aLeakIsCaught() async throws {
        try await Simulation.run(project: try Self.notes, devices: ["alice", "eve"], identities: Self.team) { simulation in
            try await simulation.device("alice").save("Note", ["id": "n1", "text": "secret"])
            try await simulation.check()
            #expect(try await simulation.device("eve").items("Note").isEmpty)
            // What a server that leaked alice's note to eve would have delivered.
            let note = try #require(try await simulation.serverItems("Note").first)
            _ = try await simulation.device("eve").store.applyRemote("Note", records: [note])
            await #expect {
                try await simulation.checkReads()
            } throws: { error in
                "\(error)" == #"eve (user eve) holds or received Note {"id":"n1"}, which it may not read."#
            }
        }
    }

    @Test("random users editing each other's notes converge on what each may read, at every quiet point")
    func randomUsersConverge() async throws {
        let run = try await Simulation.runRandom(project: try Self.notes, devices: 3, steps: 40, seed: 41, users: ["team"])
        for result in run.report.results where result.failure != nil {
            Issue.record("line \(result.line), \(result.step): \(result.failure ?? "")\n\(run.scenario.yaml)")
        }
        #expect(run.scenario.identities["device1"] == .user("device1", groups: ["team"]))
    }

    @Test("IAM devices sign with keys of their own: a signed-in one writes, a guest reads, and both pass the checks")
    func iamDevices() async throws {
        let project = AmplifyProject(
            schema: try AmplifySchema.parse(source: """
                type Photo @model @auth(rules: [{ allow: private, provider: iam }, { allow: public, provider: iam, operations: [read] }]) {
                  id: ID!
                  caption: String
                }
                """, file: "photos.graphql"),
            schemaFiles: ["photos.graphql"])
        let identities: [String: DeviceIdentity] = ["camera": .iam(authenticated: true), "visitor": .iam(authenticated: false)]
        try await Simulation.run(project: project, devices: ["camera", "visitor"], identities: identities) { simulation in
            try await simulation.device("camera").save("Photo", ["id": "p1", "caption": "sea"])
            try await simulation.check()
            #expect(try await simulation.device("visitor").items("Photo").map { $0["caption"] } == ["sea"])
            // The guest may read, not write: its edit is refused and it takes the server's photo back.
            try await simulation.device("visitor").save("Photo", ["id": "p1", "caption": "mine now"])
            try await simulation.device("visitor").waitForEmptyOutbox()
            try await simulation.check()
            #expect(try await simulation.serverItems("Photo").map { $0["caption"] } == ["sea"])
            #expect(simulation.timeline.entries.contains { $0.lane == "visitor" && $0.kind == .error && $0.text.contains("Unauthorized") })
        }
    }
}
