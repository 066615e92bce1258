import DeltaSyncCore

/// What a scenario file may say, in one table: ``ScenarioReader`` reads files by it and
/// ``ScenarioSchema`` describes it to editors, so the two cannot drift apart.
enum ScenarioGrammar {
    /// A step's argument.
    enum Argument {
        /// No argument: the step is written as a bare word (`- converge`).
        case none
        /// A mapping with these fields, those `required` among them.
        case fields([(name: String, value: Value)], required: [String])
        /// A single value.
        case value(Value)
    }

    /// The kinds of values arguments take.
    enum Value {
        case device, devices, model, object, text, places, flag, fault
        case count(minimum: Int)

        /// The JSON Schema of the value.
        var schema: JSONValue {
            switch self {
            case .device, .model, .text: return ["type": "string", "minLength": 1]
            case .devices, .places: return ["oneOf": [["type": "string", "minLength": 1], ["type": "array", "minItems": 1, "items": ["type": "string"]]]]
            case .object: return ["type": "object"]
            case .flag: return ["type": "boolean"]
            case .fault:
                return [
                    "type": "object", "required": ["type"],
                    "properties": ["type": ["enum": ["mutationError", "conflict", "delay", "refuseConnections"]]],
                    "description": "A server fault as the fixture API's POST /admin/faults takes it.",
                ]
            case .count(let minimum): return ["type": "integer", "minimum": .int(minimum)]
            }
        }
    }

    /// Every step, in the order documentation lists them, with its argument and what it does.
    static let steps: [(name: String, argument: Argument, summary: String)] = [
        ("save", .fields([("device", .device), ("model", .model), ("item", .object), ("condition", .object)], required: ["device", "model", "item"]),
         "Creates the item, or sets these fields of the device's copy; fails unless the condition holds."),
        ("delete", .fields([("device", .device), ("model", .model), ("key", .object)], required: ["device", "model", "key"]),
         "Deletes the item with this key on the device."),
        ("offline", .value(.devices), "Cuts the devices off the server."),
        ("online", .value(.devices), "Brings the devices back."),
        ("slow", .fields([("device", .device), ("milliseconds", .count(minimum: 0))], required: ["device", "milliseconds"]),
         "Delays the device's link both ways (0: full speed)."),
        ("dropConnections", .value(.device), "Cuts the device's open connections; it reconnects."),
        ("restart", .value(.device), "Closes the device's store and opens its file again, as an app's next launch does."),
        ("restartServer", .none, "Stops the server and starts it again on the same store and clock."),
        ("fault", .value(.fault), "Adds a server fault."),
        ("clearFaults", .none, "Clears every server fault."),
        ("advanceClock", .value(.count(minimum: 1)), "Moves the server's clock forward by this many seconds."),
        ("converge", .none, "Every device online, every outbox sent, every device equal to the server."),
        ("check", .none, "A converge, then no conflict handler failed and each device reads only what it may."),
        ("waitForEmptyOutbox", .value(.device), "Waits until the device sent everything it held."),
        ("expect", .fields([("model", .model), ("key", .object), ("on", .places), ("fields", .object), ("absent", .flag)], required: ["model", "key", "on"]),
         "The item on each of `on` (devices, server) has these fields, or (absent: true) does not exist there."),
        ("expectConflict", .fields([("model", .model), ("outcome", .text)], required: ["model", "outcome"]),
         "The server's conflict log holds a conflict of the model with this outcome."),
        ("expectEmptyOutbox", .value(.device), "The device has nothing left to send."),
        ("changeSyncExpressions", .fields([("device", .device), ("sync", .object), ("clear", .flag)], required: ["device", "sync"]),
         "The device's sync expressions change: sync stops, the store is cleared if asked, sync starts again."),
    ]

    /// The step names.
    static var stepNames: [String] { steps.map(\.name) }

    /// The fields of step `name`'s mapping and those required; empty for other steps.
    static func fields(of name: String) -> (keys: [String], required: [String]) {
        guard let step = steps.first(where: { $0.name == name }), case .fields(let fields, let required) = step.argument else { return ([], []) }
        return (fields.map(\.name), required)
    }

    /// The fields of a device's mapping in `devices:`, by identity.
    static let deviceFields: [(name: String, value: JSONValue)] = [
        ("user", ["type": "string", "minLength": 1, "description": "A user of the server's development issuer."]),
        ("groups", ["type": "array", "items": ["type": "string"], "description": "The user's groups."]),
        ("iam", ["enum": ["authenticated", "unauthenticated"], "description": "IAM, with the identity pool's authenticated or guest role."]),
        ("sync", ["type": "object", "additionalProperties": ["type": "object"], "description": "Sync expressions: a filter per model, as the sync query takes it."]),
    ]
}
