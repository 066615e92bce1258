/// A variable as the parser saw it: its name, and its slot, the number the template gave the
/// name, so a rendering finds the variable by index rather than by hashing the name.
struct VTLVariable {
    var name: String
    var slot: Int
}

/// The variable names of one template, each with its slot, in the order the parser met them.
/// `$foreach` and `$velocityCount`, which every loop binds, have slots whether or not the
/// template names them.
struct VTLSymbols {
    private(set) var names: [String] = []
    private var slots: [String: Int] = [:]

    static let foreach = VTLVariable(name: "foreach", slot: 0)
    static let velocityCount = VTLVariable(name: "velocityCount", slot: 1)

    init() {
        _ = variable(Self.foreach.name)
        _ = variable(Self.velocityCount.name)
    }

    func slot(of name: String) -> Int? { slots[name] }

    /// The variable of `name`, given the next slot the first time the name is met.
    mutating func variable(_ name: String) -> VTLVariable {
        if let slot = slots[name] { return VTLVariable(name: name, slot: slot) }
        let slot = names.count
        names.append(name)
        slots[name] = slot
        return VTLVariable(name: name, slot: slot)
    }
}

/// One rendering's variables by slot: a variable's value or its `#define`d block (never
/// both), and the frames of the running macro calls.
struct VTLVariableStore {
    /// The template's variables (`#set` at the top, the embedder's context), by slot.
    var values: [VTLValue?]
    /// `#define`d blocks by slot.
    var blocks: [[VTLNode]?]
    /// One frame per running macro call: its parameters by slot, bound to the call's arguments.
    var frames: [[Int: VTLBinding]] = []

    /// The embedder's `variables` in the slots of `symbols`; a variable the template never
    /// names no reference of it can read, so it is left out.
    init(symbols: VTLSymbols, variables: [String: VTLValue]) {
        values = Array(repeating: nil, count: symbols.names.count)
        blocks = Array(repeating: nil, count: symbols.names.count)
        for (name, value) in variables {
            if let slot = symbols.slot(of: name) { values[slot] = value }
        }
    }
}
