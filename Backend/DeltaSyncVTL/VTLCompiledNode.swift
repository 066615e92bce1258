/// A node of a template as the compiler leaves it (``VTLCompiler``): an object that runs
/// itself, its children and names resolved when the template was parsed, so a rendering makes
/// one call per node instead of switching on the syntax tree and copying its payloads.
class VTLCompiledNode {
    /// Runs the node: prints, binds, or throws a ``VTLEvaluation/Control`` to leave.
    func run(_ e: inout VTLEvaluation) throws {
        preconditionFailure("\(Self.self) does not run")
    }
}

/// Nodes in order: a template, a branch, a loop's body, a block.
struct VTLCompiledBlock {
    let nodes: VTLCodeList<VTLCompiledNode>

    init(_ nodes: [VTLCompiledNode]) {
        self.nodes = VTLCodeList(nodes)
    }

    func run(_ e: inout VTLEvaluation) throws {
        try nodes.forEach { node in
            try e.step()
            try node.run(&e)
        }
    }
}

/// A `#macro`: its parameters' slots, in order, and its body.
final class VTLCompiledMacro {
    let parameters: [Int]
    let body: VTLCompiledBlock

    init(parameters: [Int], body: VTLCompiledBlock) {
        self.parameters = parameters
        self.body = body
    }
}

/// Text printed as it is, kept as its UTF-8.
final class VTLTextNode: VTLCompiledNode {
    let utf8: [UInt8]

    init(_ text: String) {
        utf8 = Array(text.utf8)
    }

    override func run(_ e: inout VTLEvaluation) throws {
        try e.write(utf8)
    }
}

/// `$x.y` in text: its value, or for a null its own text (`source`) unless it is quiet (`$!x`).
final class VTLPrintNode: VTLCompiledNode {
    let reference: VTLCompiledExpression
    let quiet: Bool
    let source: VTLTextNode

    init(_ reference: VTLCompiledExpression, quiet: Bool, source: String) {
        self.reference = reference
        self.quiet = quiet
        self.source = VTLTextNode(source)
    }

    override func run(_ e: inout VTLEvaluation) throws {
        // The reference is this node's step: it is not counted again as an expression.
        switch try reference.evaluate(&e) {
        case .null: if !quiet { try source.run(&e) }
        case .string(let text): try e.write(text)
        case let value: try e.write(value.rendered)
        }
    }
}

/// `#set($x = value)`.
final class VTLSetVariableNode: VTLCompiledNode {
    let slot: Int
    let value: VTLCompiledExpression

    init(slot: Int, value: VTLCompiledExpression) {
        self.slot = slot
        self.value = value
    }

    override func run(_ e: inout VTLEvaluation) throws {
        let value = try self.value.value(in: &e)
        // Velocity 1.7: a null right-hand side leaves the target as it was.
        if value.isNull { return }
        e.bind(slot, to: value)
    }
}

/// `#set($owner.key = value)`, `#set($owner[index] = value)`.
final class VTLSetMemberNode: VTLCompiledNode {
    enum Member {
        case property(String)
        case index(VTLCompiledExpression)
        /// A method call, which cannot be set: fails when it runs, after the value and the
        /// owner are evaluated, as Velocity does.
        case call
    }

    let owner: VTLCompiledExpression
    let member: Member
    let value: VTLCompiledExpression
    let position: VTLPosition

    init(owner: VTLCompiledExpression, member: Member, value: VTLCompiledExpression, position: VTLPosition) {
        self.owner = owner
        self.member = member
        self.value = value
        self.position = position
    }

    override func run(_ e: inout VTLEvaluation) throws {
        let value = try self.value.value(in: &e)
        if value.isNull { return }
        let owner = try self.owner.evaluate(&e)
        switch (owner, member) {
        case (.map(let map), .property(let key)):
            map.entries[key] = value
        case (.map(let map), .index(let expression)):
            map.entries[try expression.value(in: &e).rendered] = value
        case (.list(let list), .index(let expression)):
            guard case .int(let index) = try expression.value(in: &e), list.items.indices.contains(index) else {
                throw e.failure("#set to a list index outside the list", at: position)
            }
            list.items[index] = value
        default:
            throw e.failure("#set cannot set a member of a \(owner.typeName)", at: position)
        }
    }
}

/// `#if`/`#elseif`/`#else`: the first branch whose condition is true, else `otherwise`.
final class VTLConditionalNode: VTLCompiledNode {
    /// `#if` or `#elseif`: its condition and its body.
    final class Branch {
        let condition: VTLCompiledExpression
        let body: VTLCompiledBlock

        init(_ condition: VTLCompiledExpression, _ body: VTLCompiledBlock) {
            self.condition = condition
            self.body = body
        }

        /// Runs the body when the condition holds; whether it did.
        func run(_ e: inout VTLEvaluation) throws -> Bool {
            guard try condition.value(in: &e).isTrue else { return false }
            try e.enter()
            defer { e.leave() }
            try body.run(&e)
            return true
        }
    }

    let branches: VTLCodeList<Branch>
    let otherwise: VTLCompiledBlock?

    init(branches: [Branch], otherwise: VTLCompiledBlock?) {
        self.branches = VTLCodeList(branches)
        self.otherwise = otherwise
    }

    override func run(_ e: inout VTLEvaluation) throws {
        if try branches.contains(where: { try $0.run(&e) }) { return }
        guard let otherwise else { return }
        try e.enter()
        defer { e.leave() }
        try otherwise.run(&e)
    }
}

/// `#define($name) ... #end`: `$name` renders the body when referenced.
final class VTLDefineNode: VTLCompiledNode {
    let slot: Int
    let body: VTLCompiledBlock

    init(slot: Int, body: VTLCompiledBlock) {
        self.slot = slot
        self.body = body
    }

    override func run(_ e: inout VTLEvaluation) throws {
        e.define(slot, body)
    }
}

/// `#name(arguments)` of a `#macro`: the body with the parameters bound to the arguments by
/// name. A missing argument leaves its parameter unbound (it reads the variable of that name,
/// as Velocity 1.7 without strict arguments does); extra arguments are ignored. Recursion is
/// bounded by ``VTLLimits/depth``.
final class VTLMacroCallNode: VTLCompiledNode {
    /// The macro's index in ``VTLEvaluation/macros``: an index rather than the macro itself,
    /// so a recursive macro does not hold itself.
    let macro: Int
    let arguments: [VTLCompiledExpression]

    init(macro: Int, arguments: [VTLCompiledExpression]) {
        self.macro = macro
        self.arguments = arguments
    }

    override func run(_ e: inout VTLEvaluation) throws {
        let macro = e.macros[self.macro]
        var frame: [Int: VTLBinding] = [:]
        for (offset, parameter) in macro.parameters.enumerated() where offset < arguments.count {
            frame[parameter] = .argument(arguments[offset])
        }
        try e.enter()
        defer { e.leave() }
        e.store.frames.append(frame)
        defer { e.store.frames.removeLast() }
        try macro.body.run(&e)
    }
}

/// `#noescape ... #end`: the body as it is (nothing is escaped here anyway).
final class VTLBlockNode: VTLCompiledNode {
    let body: VTLCompiledBlock

    init(_ body: VTLCompiledBlock) {
        self.body = body
    }

    override func run(_ e: inout VTLEvaluation) throws {
        try body.run(&e)
    }
}

/// `#break`, `#stop`, `#return` and `#return(value)`: leave by throwing, to the loop or to
/// ``VTLTemplate/render(_:limits:runtime:)``.
final class VTLControlNode: VTLCompiledNode {
    enum Kind {
        case breakLoop, stop
        case returnValue(VTLCompiledExpression?)
    }

    let kind: Kind

    init(_ kind: Kind) {
        self.kind = kind
    }

    override func run(_ e: inout VTLEvaluation) throws {
        switch kind {
        case .breakLoop: throw VTLEvaluation.Control.breakLoop
        case .stop: throw VTLEvaluation.Control.stop
        case .returnValue(let expression): throw VTLEvaluation.Control.returned(try expression?.value(in: &e))
        }
    }
}
