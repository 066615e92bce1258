import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncTesting
import Foundation
import Testing

/// Devices with sync expressions: each converges on the part of the server its expression
/// selects, and what a scenario says about them reads back from its own text.
@Suite struct SelectiveSyncSimulationTests {
    static func tasks() throws -> AmplifyProject {
        let url = SimulationTests.exampleFolder.appendingPathComponent("tasks.graphql")
        return AmplifyProject(schema: try AmplifySchema.parse(source: try String(contentsOf: url, encoding: .utf8), file: "tasks.graphql"), schemaFiles: ["tasks.graphql"])
    }

    @Test("a device holding an item of its scope the server never had does not converge")
    func strayItemInScopeFails() async throws {
        try await Simulation.run(
            project: try Self.tasks(), devices: ["lead", "kitchen"], syncExpressions: ["kitchen": ["Task": ["team": ["eq": "kitchen"]]]]
        ) { simulation in
            let kitchen = try simulation.device("kitchen")
            try await simulation.device("lead").save("Task", ["id": "b1", "team": "bar", "title": "cut limes"])
            try await simulation.converge()
            #expect(try await kitchen.items("Task").isEmpty)
            // The server refuses its create for good: the device keeps its copy (as Amplify's
            // DataStore does), in its scope, which the server never had.
            try await simulation.server.addFault(
                ["type": "mutationError", "field": "createTask", "errorType": "ValidationError", "message": "refused", "count": 1])
            try await kitchen.save("Task", ["id": "k9", "team": "kitchen", "title": "ghost"])
            try await kitchen.waitForEmptyOutbox()
            await #expect { try await simulation.converge(timeout: .milliseconds(300)) } throws: { error in
                "\(error)".contains("kitchen did not converge on Task") && "\(error)".contains("ghost")
            }
        }
    }

    @Test("a sync expression naming no model of the schema stops the run before it starts")
    func unknownModelIsRefused() async throws {
        await #expect {
            try await Simulation.run(project: try Self.tasks(), devices: ["kitchen"], syncExpressions: ["kitchen": ["Todo": ["done": ["eq": true]]]]) { _ in }
        } throws: { error in
            "\(error)".contains("A sync expression names Todo, which is not a model of the schema. Models: Task.")
        }
    }

    @Test("a scenario's sync expressions and their changes read back from the text it prints")
    func scenarioTextKeepsSyncExpressions() throws {
        let url = SimulationTests.exampleFolder.appendingPathComponent("selective-sync.yaml")
        let scenario = try ScenarioFile.parse(try String(contentsOf: url, encoding: .utf8), file: "selective-sync.yaml")
        #expect(scenario.syncExpressions["kitchen"] == ["Task": ["and": [["team": ["eq": "kitchen"]]]]])
        #expect(scenario.syncExpressions["lead"] == nil)
        let again = try ScenarioFile.parse(scenario.yaml, file: "printed.yaml")
        #expect(again.syncExpressions == scenario.syncExpressions)
        #expect(again.steps.map(\.action) == scenario.steps.map(\.action))
        #expect(scenario.steps.contains { $0.action == .changeSyncExpressions(device: "kitchen", sync: ["Task": ["and": [["team": ["eq": "bar"]]]]], clear: true) })
    }

    @Test("a sync expression's mistakes are refused at their line", arguments: [
        ("devices:\n  kitchen: {sync: []}\nsteps: []\n", "s.yaml:2: sync maps model names to filters"),
        ("devices:\n  kitchen:\n    sync: {Task: {team: {equals: bar}}}\nsteps: []\n", "s.yaml:3: Task's sync expression is not a filter"),
        ("devices:\n  kitchen: {sync: {Task: {}}, colour: red}\nsteps: []\n", "s.yaml:2: colour is not a field of a device with the API key"),
        ("devices: [kitchen]\nsteps:\n  - changeSyncExpressions: {device: kitchen, sync: {Task: {}}, clear: maybe}\n", "s.yaml:3: clear is true or false."),
    ])
    func syncExpressionMistakes(text: String, message: String) {
        #expect { try ScenarioFile.parse(text, file: "s.yaml") } throws: { error in
            "\(error)".hasPrefix(message)
        }
    }
}

/// The JSON Schema editors validate scenario files with.
@Suite struct ScenarioSchemaTests {
    static var file: URL { SimulationTests.exampleFolder.appendingPathComponent("scenario.schema.json") }

    @Test("Examples/simulations/scenario.schema.json is the schema the reader's grammar describes")
    func exampleFileIsCurrent() throws {
        let written = try? String(contentsOf: Self.file, encoding: .utf8)
        if written != ScenarioSchema.text {
            Issue.record("scenario.schema.json is out of date: write ScenarioSchema.text to it (the test run just did).")
            try ScenarioSchema.text.write(to: Self.file, atomically: true, encoding: .utf8)
        }
    }

    @Test("the schema names every step the reader takes, with the fields it takes, and every example's steps are among them")
    func schemaCoversTheReader() throws {
        let schema = ScenarioSchema.json
        let forms = schema["properties"]["steps"]["items"]["oneOf"].arrayValue ?? []
        var named = Set((forms.first?["enum"].arrayValue ?? []).compactMap(\.stringValue))
        for form in forms.dropFirst() { named.formUnion(form["properties"].objectValue?.keys.map { $0 } ?? []) }
        // A step name nobody may write is refused by the reader with the list of steps it takes.
        #expect {
            try ScenarioFile.parse("devices: [phone]\nsteps:\n  - jump: phone\n", file: "s.yaml")
        } throws: { error in
            let listed = "\(error)".components(separatedBy: "Steps: ").last?.trimmingCharacters(in: .punctuationCharacters) ?? ""
            return Set(listed.components(separatedBy: ", ")) == named
        }
        let save = forms.first { $0["required"] == ["save"] }
        #expect(save?["properties"]["save"]["required"] == ["device", "model", "item"])
        for name in SimulationTests.examples {
            let text = try String(contentsOf: SimulationTests.exampleFolder.appendingPathComponent(name), encoding: .utf8)
            for step in try ScenarioFile.parse(text, file: name).steps {
                let word = Scenario(devices: ["d"], steps: [step]).yaml.components(separatedBy: "  - ").last?.components(separatedBy: ":").first?
                    .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
                #expect(named.contains(word), "\(name) line \(step.line): \(word)")
            }
        }
    }
}
