import DeltaSyncCore

extension Scenario {
    /// The scenario as a file ``ScenarioFile/parse(_:file:)`` reads back: what a random run
    /// prints to replay its failure. Arguments are written as JSON, which is YAML.
    public var yaml: String {
        var lines: [String]
        if identities.isEmpty, syncExpressions.isEmpty {
            lines = ["devices: \(JSONValue.array(devices.map(JSONValue.string)).jsonText)"]
        } else {
            lines = ["devices:"]
            for device in devices {
                lines.append("  \(JSONValue.string(device).jsonText): \(Self.text(identities[device] ?? .apiKey, sync: syncExpressions[device] ?? [:]))")
            }
        }
        if let conflictHandler, let name = ScenarioReader.handlers.first(where: { $0.value == conflictHandler })?.key {
            lines.append("conflictHandler: \(name)")
        }
        if let lambdaHandler { lines.append("lambdaHandler: \(JSONValue.string(lambdaHandler).jsonText)") }
        lines.append("steps:")
        for step in steps { lines.append("  - " + Self.text(step.action)) }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func text(_ identity: DeviceIdentity, sync: [String: JSONValue]) -> String {
        var fields: [String: JSONValue] = sync.isEmpty ? [:] : ["sync": .object(sync)]
        switch identity {
        case .apiKey: if sync.isEmpty { return "apiKey" }
        case .iam(let authenticated): fields["iam"] = .string(authenticated ? "authenticated" : "unauthenticated")
        case .user(let name, let groups):
            fields["user"] = .string(name)
            fields["groups"] = .array(groups.map(JSONValue.string))
        }
        return JSONValue.object(fields).jsonText
    }

    private static func text(_ action: ScenarioStep.Action) -> String {
        func step(_ name: String, _ argument: JSONValue) -> String { "\(name): \(argument.jsonText)" }
        func names(_ list: [String]) -> JSONValue { .array(list.map(JSONValue.string)) }
        switch action {
        case .save(let device, let model, let item, let condition):
            var argument: [String: JSONValue] = ["device": .string(device), "model": .string(model), "item": .object(item)]
            if let condition { argument["condition"] = condition }
            return step("save", .object(argument))
        case .delete(let device, let model, let key):
            return step("delete", ["device": .string(device), "model": .string(model), "key": .object(key)])
        case .offline(let list): return step("offline", names(list))
        case .online(let list): return step("online", names(list))
        case .restart(let device): return step("restart", .string(device))
        case .advanceClock(let seconds): return step("advanceClock", .int(seconds))
        case .converge: return "converge"
        case .check: return "check"
        case .restartServer: return "restartServer"
        case .clearFaults: return "clearFaults"
        case .dropConnections(let device): return step("dropConnections", .string(device))
        case .slow(let device, let milliseconds): return step("slow", ["device": .string(device), "milliseconds": .int(milliseconds)])
        case .fault(let fault): return step("fault", fault)
        case .waitForEmptyOutbox(let device): return step("waitForEmptyOutbox", .string(device))
        case .expectEmptyOutbox(let device): return step("expectEmptyOutbox", .string(device))
        case .expect(let model, let key, let places, let fields):
            var argument: [String: JSONValue] = ["model": .string(model), "key": .object(key), "on": names(places)]
            if let fields { argument["fields"] = .object(fields) } else { argument["absent"] = true }
            return step("expect", .object(argument))
        case .changeSyncExpressions(let device, let sync, let clear):
            return step("changeSyncExpressions", ["device": .string(device), "sync": .object(sync), "clear": .bool(clear)])
        case .expectConflict(let model, let outcome):
            return step("expectConflict", ["model": .string(model), "outcome": .string(outcome)])
        }
    }
}
