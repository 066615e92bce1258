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
    /// `#define`d blocks by slot; empty for a template without `#define`, which then has no
    /// block to look for.
    var blocks: [VTLCompiledBlock?]
    /// One frame per running macro call: its parameters by slot, bound to the call's arguments.
    var frames: [[Int: VTLBinding]] = []

    /// The embedder's `variables` in the slots of `symbols`; a variable the template never
    /// names no reference of it can read, so it is left out.
    init(symbols: VTLSymbols, variables: [String: VTLValue], definesBlocks: Bool = true) {
        values = Array(repeating: nil, count: symbols.names.count)
        blocks = definesBlocks ? Array(repeating: nil, count: symbols.names.count) : []
        for (name, value) in variables {
            if let slot = symbols.slot(of: name) { values[slot] = value }
        }
    }
}

/// A macro parameter's binding: the call's argument expression, evaluated where the call
/// stands each time the parameter is read (Velocity 1.7 passes arguments by name), until the
/// macro `#set`s the parameter to a value of its own.
enum VTLBinding {
    case argument(VTLCompiledExpression)
    case value(VTLValue)
}

/// Variables as macros and `#define` see them.
extension VTLEvaluation {
    /// A variable's value: a parameter of the running macro, then a `#define`d block (rendered
    /// now, with the variables as they are now), then the template's variables; `nil` when
    /// nothing has the name.
    mutating func lookup(_ slot: Int) throws -> VTLValue? {
        if !store.frames.isEmpty, let binding = store.frames[store.frames.count - 1][slot] {
            switch binding {
            case .value(let value):
                return value
            case .argument(let expression):
                // The argument is read where the call stands: in the caller's frame.
                let frame = store.frames.removeLast()
                defer { store.frames.append(frame) }
                return try expression.value(in: &self)
            }
        }
        if !store.blocks.isEmpty, let block = store.blocks[slot] { return try render(block) }
        return store.values[slot]
    }

    /// Whether anything has the name, without evaluating it (a macro's argument, a block).
    func isBound(_ slot: Int) -> Bool {
        if !store.frames.isEmpty, store.frames[store.frames.count - 1][slot] != nil { return true }
        if !store.blocks.isEmpty, store.blocks[slot] != nil { return true }
        return store.values[slot] != nil
    }

    /// `#set($name = value)`: the running macro's parameter when it has one by that name
    /// (Velocity 1.7 keeps other variables global), else the template's variable.
    mutating func bind(_ slot: Int, to value: VTLValue) {
        if !store.frames.isEmpty, store.frames[store.frames.count - 1][slot] != nil {
            store.frames[store.frames.count - 1][slot] = .value(value)
            return
        }
        if !store.blocks.isEmpty, store.blocks[slot] != nil { store.blocks[slot] = nil }
        store.values[slot] = value
    }

    /// `#define($name)`: the block replaces whatever the variable held.
    mutating func define(_ slot: Int, _ body: VTLCompiledBlock) {
        store.values[slot] = nil
        store.blocks[slot] = body
    }

    /// What a name is bound to, so a loop can put it back after it.
    enum SavedBinding {
        case parameter(VTLBinding)
        case global(VTLValue?, VTLCompiledBlock?)
    }

    func binding(of slot: Int) -> SavedBinding {
        if let binding = store.frames.last?[slot] { return .parameter(binding) }
        return .global(store.values[slot], store.blocks.isEmpty ? nil : store.blocks[slot])
    }

    mutating func restore(_ saved: SavedBinding, of slot: Int) {
        switch saved {
        case .parameter(let binding):
            store.frames[store.frames.count - 1][slot] = binding
        case .global(let value, let block):
            store.values[slot] = value
            if !store.blocks.isEmpty { store.blocks[slot] = block }
        }
    }

    /// A `#define`d block, rendered into a string.
    private mutating func render(_ block: VTLCompiledBlock) throws -> VTLValue {
        try enter()
        defer { leave() }
        let saved = output
        output = []
        defer { output = saved }
        try block.run(&self)
        return .string(String(decoding: output, as: UTF8.self))
    }
}
