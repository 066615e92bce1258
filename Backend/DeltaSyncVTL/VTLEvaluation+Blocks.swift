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
    func lookup(_ name: String) throws -> VTLValue? {
        if let binding = frames.last?[name] {
            switch binding {
            case .value(let value):
                return value
            case .argument(let expression):
                // The argument is read where the call stands: in the caller's frame.
                let saved = frames
                frames.removeLast()
                defer { frames = saved }
                return try evaluate(expression)
            }
        }
        if let block = blocks[name] { return try render(block) }
        return variables[name]
    }

    /// `#set($name = value)`: the running macro's parameter when it has one by that name
    /// (Velocity 1.7 keeps other variables global), else the template's variable.
    func bind(_ name: String, to value: VTLValue) {
        if frames.last?[name] != nil {
            frames[frames.count - 1][name] = .value(value)
            return
        }
        blocks[name] = nil
        variables[name] = value
    }

    /// `#define($name)`: the block replaces whatever the variable held.
    func define(_ name: String, _ body: [VTLNode]) {
        variables[name] = nil
        blocks[name] = body
    }

    /// What a name is bound to, so a loop can put it back after it.
    enum SavedBinding {
        case parameter(VTLBinding)
        case global(VTLValue?, [VTLNode]?)
    }

    func binding(of name: String) -> SavedBinding {
        if let binding = frames.last?[name] { return .parameter(binding) }
        return .global(variables[name], blocks[name])
    }

    func restore(_ saved: SavedBinding, of name: String) {
        switch saved {
        case .parameter(let binding):
            frames[frames.count - 1][name] = binding
        case .global(let value, let block):
            variables[name] = value
            blocks[name] = block
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
        var frame: [String: VTLBinding] = [:]
        for (offset, parameter) in macro.parameters.enumerated() where offset < arguments.count {
            frame[parameter] = .argument(arguments[offset])
        }
        try nested {
            frames.append(frame)
            defer { frames.removeLast() }
            try run(macro.body)
        }
    }
}
