import DeltaSyncCore
import DeltaSyncSchema

/// Random scenarios on a schema: devices save, delete, restart and lose their network at random,
/// with a `check` at quiet points and at the end. The same seed makes the same scenario.
///
/// ```swift
/// // let scenario = try RandomScenario.make(schema: project.schema, devices: 4, steps: 60, seed: 7)
/// // let report = try await Simulation.run(project: project, devices: scenario.devices) { await $0.run(scenario) }
/// ```
public enum RandomScenario {
    /// - Throws: ``SimulationError`` when no model of `schema` has fields a random run can fill
    ///   (required fields of scalar and enum types only).
    public static func make(schema: AmplifySchema, devices count: Int, steps: Int, seed: UInt64) throws -> Scenario {
        var generator = try RandomSteps(schema: schema, devices: count, seed: seed)
        var result = (0..<steps).map { _ in generator.next() }
        result.append(ScenarioStep(line: steps + 1, action: .check))
        return Scenario(devices: generator.devices, conflictHandler: nil, steps: result)
    }

    static func key(_ model: ModelSchema, _ n: Int) -> Item {
        var key: Item = [:]
        for field in model.primaryKey.fields { key[field] = .string("\(field)-\(n)") }
        return key
    }

    /// Every required field and some optional ones, with random values.
    static func fields(_ model: ModelSchema, _ schema: AmplifySchema, _ random: inout ScenarioRandom, _ step: Int) -> Item {
        var item: Item = [:]
        for field in model.storedFields where !model.primaryKey.fields.contains(field.name) && fillable(field, schema) {
            guard field.isRequired || random.below(2) == 0, !field.isGenerated else { continue }
            item[field.name] = value(field, schema, &random, step)
        }
        return item
    }

    static func fillable(_ field: Field, _ schema: AmplifySchema) -> Bool {
        guard !field.isList else { return false }
        switch field.type {
        case .scalar(let scalar): return [.id, .string, .int, .float, .boolean].contains(scalar)
        case .enumType(let name): return !(schema.enumType(named: name)?.values.isEmpty ?? true)
        case .nonModel, .model: return false
        }
    }

    static func value(_ field: Field, _ schema: AmplifySchema, _ random: inout ScenarioRandom, _ step: Int) -> JSONValue {
        switch field.type {
        case .scalar(.int): return .int(random.below(1000))
        case .scalar(.float): return .double(Double(random.below(1000)) / 10)
        case .scalar(.boolean): return .bool(random.below(2) == 0)
        case .enumType(let name):
            let values = schema.enumType(named: name)?.values ?? []
            return values.isEmpty ? .null : .string(values[random.below(values.count)])
        default: return .string("\(field.name) \(step)")
        }
    }
}

/// The random steps of one seed, one at a time: a run with a time limit takes as many as it
/// has time for.
struct RandomSteps {
    let schema: AmplifySchema
    let models: [ModelSchema]
    let devices: [String]
    private var random: ScenarioRandom
    private var offline = Set<String>()
    private var made = 0

    init(schema: AmplifySchema, devices count: Int, seed: UInt64) throws {
        let models = schema.models.filter { model in
            model.storedFields.allSatisfy { !$0.isRequired || $0.isGenerated || RandomScenario.fillable($0, schema) }
        }
        guard !models.isEmpty else {
            throw SimulationError("No model can be filled at random: each has a required field of a model or non-model type.")
        }
        self.schema = schema
        self.models = models
        devices = (1...max(1, count)).map { "device\($0)" }
        random = ScenarioRandom(seed: seed)
    }

    /// The next step, numbered from 1: a device goes offline or online (14%), saves random
    /// values (48%), deletes (14%) or restarts (8%); the server restarts (2%); or every device
    /// is checked at a quiet point (14%).
    mutating func next() -> ScenarioStep {
        made += 1
        let device = devices[random.below(devices.count)]
        let model = models[random.below(models.count)]
        let key = RandomScenario.key(model, random.below(4))
        let action: ScenarioStep.Action
        switch random.below(100) {
        case 0..<14:
            if offline.remove(device) != nil { action = .online([device]) } else {
                offline.insert(device)
                action = .offline([device])
            }
        case 14..<62:
            let fields = RandomScenario.fields(model, schema, &random, made - 1)
            action = .save(device: device, model: model.name, item: key.merging(fields) { a, _ in a }, condition: nil)
        case 62..<76: action = .delete(device: device, model: model.name, key: key)
        case 76..<84: action = .restart(device)
        case 84..<86: action = .restartServer
        default:
            offline = []
            action = .check
        }
        return ScenarioStep(line: made, action: action)
    }
}

/// SplitMix64: the same sequence on every platform and run, so a seed replays its scenario.
struct ScenarioRandom {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound`.
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(max(1, bound))) }
}
