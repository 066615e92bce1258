import DeltaSyncCore
import DeltaSyncSchema
import Yams

/// A scenario file that cannot be run, and where: `file:line: message`.
public struct ScenarioError: Error, CustomStringConvertible, Sendable, Equatable {
    public let file: String
    /// 1-based; 0 when the problem is the file as a whole.
    public let line: Int
    public let message: String

    public var description: String { line > 0 ? "\(file):\(line): \(message)" : "\(file): \(message)" }
}

/// Reads a ``Scenario`` from YAML or JSON text (JSON is YAML), keeping each step's line.
public enum ScenarioFile {
    /// - Throws: ``ScenarioError`` at the line of the first thing that is wrong, saying what
    ///   was expected there.
    public static func parse(_ text: String, file: String) throws(ScenarioError) -> Scenario {
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw ScenarioError(file: file, line: Self.line(of: error), message: "not valid YAML or JSON: \(error)")
        } catch {
            throw ScenarioError(file: file, line: 0, message: "not valid YAML or JSON: \(error)")
        }
        guard let root, case .mapping(let top) = root else {
            throw ScenarioError(file: file, line: 1, message: "a scenario is a mapping with devices and steps.")
        }
        var reader = ScenarioReader(file: file)
        try reader.refuseUnknown(top, allowed: ["devices", "conflictHandler", "lambdaHandler", "steps"], in: "a scenario")
        guard let devices = top["devices"] else { throw reader.error(root, "the scenario has no devices: name them, `devices: [phone, tablet]`.") }
        var identities: [String: DeviceIdentity] = [:]
        var syncExpressions: [String: [String: JSONValue]] = [:]
        if case .mapping(let named) = devices {
            // `alice: {user: alice, groups: [team]}`: each device with who it syncs as, and what.
            for (key, value) in named {
                let name = try reader.text(key)
                reader.devices.append(name)
                (identities[name], syncExpressions[name]) = try reader.device(spec: value)
            }
        } else {
            reader.devices = try reader.names(devices, what: "devices")
        }
        guard Set(reader.devices).count == reader.devices.count, !reader.devices.contains("server") else {
            throw reader.error(devices, "device names must differ from each other and from `server`.")
        }
        guard let stepsNode = top["steps"], case .sequence(let steps) = stepsNode else {
            throw reader.error(root, "the scenario has no list of steps.")
        }
        let handler = try top["conflictHandler"].map { node throws(ScenarioError) in try reader.conflictHandler(node) }
        let lambdaHandler = try top["lambdaHandler"].map { node throws(ScenarioError) in try reader.lambdaHandler(node) }
        return Scenario(
            devices: reader.devices, identities: identities.filter { $0.value != .apiKey },
            syncExpressions: syncExpressions.filter { !$0.value.isEmpty }, conflictHandler: handler, lambdaHandler: lambdaHandler, steps: try steps.map { node throws(ScenarioError) in try reader.step(node) })
    }

    static func line(of error: YamlError) -> Int {
        switch error {
        case .scanner(_, _, let mark, _), .parser(_, _, let mark, _), .composer(_, _, let mark, _): return mark.line
        default: return 0
        }
    }
}
