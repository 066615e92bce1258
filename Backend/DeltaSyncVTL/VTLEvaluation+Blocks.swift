/// A macro parameter's binding: the call's argument expression, evaluated where the call
/// stands each time the parameter is read (Velocity 1.7 passes arguments by name), until the
/// macro `#set`s the parameter to a value of its own.
enum VTLBinding {
    case argument(VTLExpression)
    case value(VTLValue)
}

/// Variables as macros and `#define` see them, and the two directives' rendering.
extension VTLEvaluation {
    /// A variable's value: a parameter of the running macro, then a `#define`d block (rendered
    /// now, with the variables as they are now), then the template's variables; `nil` when
    /// nothing has the name.
    func lookup(_ variable: VTLVariable) throws -> VTLValue? {
        let slot = variable.slot
        if !store.frames.isEmpty, let binding = store.frames[store.frames.count - 1][slot] {
            switch binding {
            case .value(let value):
                return value
            case .argument(let expression):
                // The argument is read where the call stands: in the caller's frame.
                let saved = store.frames
                store.frames.removeLast()
                defer { store.frames = saved }
                return try evaluate(expression)
            }
        }
        if let block = store.blocks[slot] { return try render(block) }
        return store.values[slot]
    }

    /// `#set($name = value)`: the running macro's parameter when it has one by that name
    /// (Velocity 1.7 keeps other variables global), else the template's variable.
    func bind(_ variable: VTLVariable, to value: VTLValue) {
        let slot = variable.slot
        if !store.frames.isEmpty, store.frames[store.frames.count - 1][slot] != nil {
            store.frames[store.frames.count - 1][slot] = .value(value)
            return
        }
        store.blocks[slot] = nil
        store.values[slot] = value
    }

    /// `#define($name)`: the block replaces whatever the variable held.
    func define(_ variable: VTLVariable, _ body: [VTLNode]) {
        store.values[variable.slot] = nil
        store.blocks[variable.slot] = body
    }

    /// What a name is bound to, so a loop can put it back after it.
    enum SavedBinding {
        case parameter(VTLBinding)
        case global(VTLValue?, [VTLNode]?)
    }

    func binding(of variable: VTLVariable) -> SavedBinding {
        if let binding = store.frames.last?[variable.slot] { return .parameter(binding) }
        return .global(store.values[variable.slot], store.blocks[variable.slot])
    }

    func restore(_ saved: SavedBinding, of variable: VTLVariable) {
        switch saved {
        case .parameter(let binding):
            store.frames[store.frames.count - 1][variable.slot] = binding
        case .global(let value, let block):
            store.values[variable.slot] = value
            store.blocks[variable.slot] = block
        }
    }

    /// A `#define`d block, rendered into a string.
    private func render(_ block: [VTLNode]) throws -> VTLValue {
        try nested {
            let saved = output
            output = ""
            defer { output = saved }
            try run(block)
            return .string(output)
        }
    }

    /// `#name(arguments)`: the body with the parameters bound to the arguments by name. A
    /// missing argument leaves its parameter unbound (it reads the variable of that name, as
    /// Velocity 1.7 without strict arguments does); extra arguments are ignored. Recursion is
    /// bounded by ``VTLLimits/depth``.
    func call(_ macro: VTLMacro, named name: String, with arguments: [VTLExpression], at position: VTLPosition) throws {
        var frame: [Int: VTLBinding] = [:]
        for (offset, parameter) in macro.parameters.enumerated() where offset < arguments.count {
            frame[parameter.slot] = .argument(arguments[offset])
        }
        try nested {
            store.frames.append(frame)
            defer { store.frames.removeLast() }
            try run(macro.body)
        }
    }
}
