import DeltaSyncCore
import DeltaSyncFixture
import Foundation
import DeltaSyncSchema
import Yams

/// Reads one scenario's nodes into steps, checking names and shapes as it goes.
struct ScenarioReader {
    let file: String
    var devices: [String] = []

    static var actions: [String] { ScenarioGrammar.stepNames }

    static let handlers: [String: ConflictHandlerKind] = ["automerge": .automerge, "optimistic": .optimisticConcurrency, "lambda": .lambda]

    func error(_ node: Node, _ message: String) -> ScenarioError {
        ScenarioError(file: file, line: node.mark?.line ?? 0, message: message)
    }

    func step(_ node: Node) throws(ScenarioError) -> ScenarioStep {
        let line = node.mark?.line ?? 0
        if node.string == "converge" { return ScenarioStep(line: line, action: .converge) }
        if node.string == "check" { return ScenarioStep(line: line, action: .check) }
        if node.string == "restartServer" { return ScenarioStep(line: line, action: .restartServer) }
        if node.string == "clearFaults" { return ScenarioStep(line: line, action: .clearFaults) }
        guard case .mapping(let mapping) = node, mapping.count == 1, let (keyNode, argument) = mapping.first, let action = keyNode.string else {
            throw error(node, "a step is one of \(Self.actions.joined(separator: ", ")), written `- action: argument`.")
        }
        switch action {
        case "save":
            let fields = try arguments(of: "save", argument)
            return ScenarioStep(line: line, action: .save(
                device: try device(fields["device"]!), model: try text(fields["model"]!), item: try item(fields["item"]!),
                condition: fields["condition"].map(Self.json)))
        case "delete":
            let fields = try arguments(of: "delete", argument)
            return ScenarioStep(line: line, action: .delete(
                device: try device(fields["device"]!), model: try text(fields["model"]!), key: try item(fields["key"]!)))
        case "offline": return ScenarioStep(line: line, action: .offline(try deviceList(argument)))
        case "online": return ScenarioStep(line: line, action: .online(try deviceList(argument)))
        case "restart": return ScenarioStep(line: line, action: .restart(try device(argument)))
        case "expectEmptyOutbox": return ScenarioStep(line: line, action: .expectEmptyOutbox(try device(argument)))
        case "waitForEmptyOutbox": return ScenarioStep(line: line, action: .waitForEmptyOutbox(try device(argument)))
        case "converge": return ScenarioStep(line: line, action: .converge)
        case "check": return ScenarioStep(line: line, action: .check)
        case "restartServer": return ScenarioStep(line: line, action: .restartServer)
        case "clearFaults": return ScenarioStep(line: line, action: .clearFaults)
        case "dropConnections": return ScenarioStep(line: line, action: .dropConnections(try device(argument)))
        case "slow":
            let fields = try arguments(of: "slow", argument)
            guard let milliseconds = fields["milliseconds"]?.int, milliseconds >= 0 else {
                throw error(fields["milliseconds"]!, "slow's milliseconds is a whole number, 0 or more.")
            }
            return ScenarioStep(line: line, action: .slow(device: try device(fields["device"]!), milliseconds: milliseconds))
        case "fault":
            let fault = Self.json(argument)
            do {
                _ = try Fault(json: fault, now: Date())
            } catch let refused as AppSyncError {
                throw error(argument, refused.message)
            } catch let other {
                throw error(argument, "\(other)")
            }
            return ScenarioStep(line: line, action: .fault(fault))
        case "advanceClock":
            guard let seconds = argument.int, seconds > 0 else { throw error(argument, "advanceClock takes a number of seconds above 0.") }
            return ScenarioStep(line: line, action: .advanceClock(seconds: seconds))
        case "expect":
            let fields = try arguments(of: "expect", argument)
            let places = try names(fields["on"]!, what: "on")
            for place in places where place != "server" && !devices.contains(place) {
                throw error(fields["on"]!, "expect's `on` names \(place), which is neither a device (\(devices.joined(separator: ", "))) nor `server`.")
            }
            let absent = fields["absent"]?.bool ?? false
            guard absent != (fields["fields"] != nil) else { throw error(argument, "expect takes either `fields` or `absent: true`.") }
            return ScenarioStep(line: line, action: .expect(
                model: try text(fields["model"]!), key: try item(fields["key"]!), on: places, fields: try fields["fields"].map(item)))
        case "changeSyncExpressions":
            let fields = try arguments(of: "changeSyncExpressions", argument)
            guard fields["clear"].map({ $0.bool != nil }) ?? true else { throw error(fields["clear"]!, "clear is true or false.") }
            return ScenarioStep(line: line, action: .changeSyncExpressions(
                device: try device(fields["device"]!), sync: try syncExpressions(fields["sync"]!), clear: fields["clear"]?.bool ?? false))
        case "expectConflict":
            let fields = try arguments(of: "expectConflict", argument)
            return ScenarioStep(line: line, action: .expectConflict(model: try text(fields["model"]!), outcome: try text(fields["outcome"]!)))
        default:
            throw error(keyNode, "\(action) is not a step. Steps: \(Self.actions.joined(separator: ", ")).")
        }
    }

    func conflictHandler(_ node: Node) throws(ScenarioError) -> ConflictHandlerKind {
        guard let name = node.string, let handler = Self.handlers[name] else {
            throw error(node, "conflictHandler is one of \(Self.handlers.keys.sorted().joined(separator: ", ")).")
        }
        return handler
    }

    func lambdaHandler(_ node: Node) throws(ScenarioError) -> String {
        let path = try text(node)
        guard ScenarioLambdaHandler.runtime(of: path) != nil else {
            throw error(node, "lambdaHandler is a Node (.js, .cjs, .mjs) or Python (.py) file exporting `handler`.")
        }
        return path
    }

    /// `apiKey`, `iam`, `{iam: authenticated | unauthenticated}` or `{user: NAME, groups: [...]}`,
    /// each mapping with `sync: {Model: FILTER}`, the device's sync expressions (`{sync: ...}`
    /// alone: the API key).
    func device(spec node: Node) throws(ScenarioError) -> (DeviceIdentity, [String: JSONValue]) {
        let shapes = "apiKey, iam, {iam: unauthenticated} or {user: NAME, groups: [GROUP, ...]}, with sync: {Model: FILTER} if it syncs part"
        switch node.string {
        case "apiKey": return (.apiKey, [:])
        case "iam": return (.iam(authenticated: true), [:])
        default: break
        }
        guard case .mapping(let mapping) = node else { throw error(node, "a device is one of \(shapes).") }
        let sync = try mapping["sync"].map { node throws(ScenarioError) in try syncExpressions(node) } ?? [:]
        if mapping["iam"] != nil {
            let fields = try object(node, keys: ["iam", "sync"], required: ["iam"], in: "an IAM identity")
            switch fields["iam"]?.string {
            case "authenticated": return (.iam(authenticated: true), sync)
            case "unauthenticated": return (.iam(authenticated: false), sync)
            default: throw error(fields["iam"]!, "iam is authenticated or unauthenticated.")
            }
        }
        if mapping["user"] == nil {
            _ = try object(node, keys: ["sync"], required: ["sync"], in: "a device with the API key")
            return (.apiKey, sync)
        }
        let fields = try object(node, keys: ["user", "groups", "sync"], required: ["user"], in: "a user identity")
        let groups = try fields["groups"].map { node throws(ScenarioError) in try names(node, what: "groups") } ?? []
        return (.user(try text(fields["user"]!), groups: groups), sync)
    }

    /// `{Model: FILTER, ...}`: each model's sync expression, a filter as the sync query takes it.
    func syncExpressions(_ node: Node) throws(ScenarioError) -> [String: JSONValue] {
        guard case .mapping(let mapping) = node, !mapping.isEmpty else {
            throw error(node, "sync maps model names to filters: `sync: {Todo: {list: {eq: kitchen}}}`.")
        }
        var expressions: [String: JSONValue] = [:]
        for (key, value) in mapping {
            let filter = Self.json(value)
            do {
                _ = try QueryPredicate(filter: filter)
            } catch {
                throw self.error(value, "\(try text(key))'s sync expression is not a filter: \(error)")
            }
            expressions[try text(key)] = filter
        }
        return expressions
    }

    // MARK: - Shapes

    /// Step `name`'s argument mapping, its fields as ``ScenarioGrammar`` lists them.
    func arguments(of name: String, _ argument: Node) throws(ScenarioError) -> [String: Node] {
        let (keys, required) = ScenarioGrammar.fields(of: name)
        return try object(argument, keys: keys, required: required, in: name)
    }

    func refuseUnknown(_ mapping: Node.Mapping, allowed: [String], in what: String) throws(ScenarioError) {
        for (key, _) in mapping where !allowed.contains(key.string ?? "") {
            throw error(key, "\(key.string ?? "this key") is not a field of \(what). Fields: \(allowed.joined(separator: ", ")).")
        }
    }

    func object(_ node: Node, keys: [String], required: [String], in what: String) throws(ScenarioError) -> [String: Node] {
        guard case .mapping(let mapping) = node else { throw error(node, "\(what) takes a mapping of \(keys.joined(separator: ", ")).") }
        try refuseUnknown(mapping, allowed: keys, in: what)
        var fields: [String: Node] = [:]
        for (key, value) in mapping { if let name = key.string { fields[name] = value } }
        for name in required where fields[name] == nil { throw error(node, "\(what) needs `\(name)`.") }
        return fields
    }

    func text(_ node: Node) throws(ScenarioError) -> String {
        guard case .scalar = node, let text = node.string, !text.isEmpty else { throw error(node, "expected a name here.") }
        return text
    }

    func names(_ node: Node, what: String) throws(ScenarioError) -> [String] {
        if case .scalar = node { return [try text(node)] }
        guard case .sequence(let sequence) = node, !sequence.isEmpty else { throw error(node, "\(what) is a name or a list of names.") }
        return try sequence.map { node throws(ScenarioError) in try text(node) }
    }

    func device(_ node: Node) throws(ScenarioError) -> String {
        let name = try text(node)
        guard devices.contains(name) else { throw error(node, "no device is named \(name). Devices: \(devices.joined(separator: ", ")).") }
        return name
    }

    func deviceList(_ node: Node) throws(ScenarioError) -> [String] {
        let list = try names(node, what: "a list of devices")
        for name in list where !devices.contains(name) {
            throw error(node, "no device is named \(name). Devices: \(devices.joined(separator: ", ")).")
        }
        return list
    }

    func item(_ node: Node) throws(ScenarioError) -> Item {
        guard case .object(let object) = Self.json(node) else { throw error(node, "expected a mapping of field names to values.") }
        return object
    }

    /// A node as JSON: plain scalars typed as YAML types them, quoted ones strings.
    static func json(_ node: Node) -> JSONValue {
        switch node {
        case .scalar(let scalar):
            if scalar.style == .plain {
                if node.null != nil { return .null }
                if let bool = node.bool { return .bool(bool) }
                if let int = node.int { return .int(int) }
                if let double = node.float { return .double(double) }
            }
            return .string(scalar.string)
        case .sequence(let sequence):
            return .array(sequence.map(json))
        case .mapping(let mapping):
            var object: [String: JSONValue] = [:]
            for (key, value) in mapping { object[key.string ?? "\(key)"] = json(value) }
            return .object(object)
        case .alias:
            return .null
        }
    }
}
