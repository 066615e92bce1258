import DeltaSyncCore

/// The JSON Schema of scenario files, for editors: with it, VS Code's YAML extension (and any
/// JSON Schema tool) completes step names and fields and marks mistakes as they are typed.
/// `Examples/simulations/scenario.schema.json` is a copy (a test keeps it current), which a
/// YAML file names on its first line:
///
/// ```yaml
/// # yaml-language-server: $schema=scenario.schema.json
/// devices: [phone, tablet]
/// steps: [converge]
/// ```
///
/// ``ScenarioFile/parse(_:file:)`` stays the judge (names of devices and models are checked
/// against the scenario and the schema of the project); this describes the shape.
public enum ScenarioSchema {
    /// The schema as JSON text, indented.
    public static var text: String { json.prettyText + "\n" }

    /// The schema.
    public static var json: JSONValue {
        let bareWords = ScenarioGrammar.steps.filter { if case .none = $0.argument { true } else { false } }
        var stepForms: [JSONValue] = [["enum": .array(bareWords.map { .string($0.name) }), "description": "A step without an argument."]]
        for step in ScenarioGrammar.steps {
            let argument: JSONValue
            switch step.argument {
            case .none: continue
            case .value(let value): argument = value.schema
            case .fields(let fields, let required):
                argument = [
                    "type": "object", "additionalProperties": false, "required": .array(required.map(JSONValue.string)),
                    "properties": .object(Dictionary(uniqueKeysWithValues: fields.map { ($0.name, $0.value.schema) })),
                ]
            }
            stepForms.append([
                "type": "object", "additionalProperties": false, "required": [.string(step.name)], "description": .string(step.summary),
                "properties": [step.name: argument],
            ])
        }
        let device: JSONValue = [
            "oneOf": [
                ["enum": ["apiKey", "iam"]],
                ["type": "object", "additionalProperties": false,
                 "properties": .object(Dictionary(uniqueKeysWithValues: ScenarioGrammar.deviceFields.map { ($0.name, $0.value) }))],
            ]
        ]
        return [
            "$schema": "http://json-schema.org/draft-07/schema#",
            "title": "deltasync simulate scenario",
            "description": "Simulated offline devices against a server of your schema: the devices, then the steps they take. See Examples/simulations.",
            "type": "object", "additionalProperties": false, "required": ["devices", "steps"],
            "properties": [
                "devices": [
                    "description": "The devices by name (they sync with the API key), or a mapping of each to who it syncs as and what.",
                    "oneOf": [
                        ["type": "array", "minItems": 1, "uniqueItems": true, "items": ["type": "string", "minLength": 1]],
                        ["type": "object", "minProperties": 1, "additionalProperties": device],
                    ],
                ],
                "conflictHandler": ["enum": .array(ScenarioReader.handlers.keys.sorted().map(JSONValue.string))],
                "lambdaHandler": ["type": "string", "pattern": "\\.(js|cjs|mjs|py)$", "description": "A Node or Python file exporting handler."],
                "steps": ["type": "array", "items": ["oneOf": .array(stepForms)]],
            ],
        ]
    }
}
