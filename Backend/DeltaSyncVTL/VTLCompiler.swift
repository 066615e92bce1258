/// Turns the parser's syntax tree into compiled nodes and expressions, once per template:
/// operators become their own classes, references their variable's slot and a path of
/// segments, `$util` calls their function, macro calls their macro's index. Rendering then
/// runs the compiled objects only.
struct VTLCompiler {
    /// The index of each `#macro` by name, in ``VTLTemplate``'s macros.
    private let macroIndexes: [String: Int]
    /// Whether a loop's `$foreach` and `$velocityCount` could be read other than by its body:
    /// by a macro or a `#define`d block it runs, when the template reads them anywhere.
    private let loopScopeReadElsewhere: Bool

    /// The template's nodes, as `parser` read them, and its macros, compiled.
    static func compile(_ nodes: [VTLNode], parser: VTLParser) -> (VTLCompiledBlock, [VTLCompiledMacro]) {
        let macros = parser.macros
        let names = macros.keys.sorted()
        let compiler = VTLCompiler(
            macroIndexes: Dictionary(uniqueKeysWithValues: names.enumerated().map { ($0.element, $0.offset) }),
            loopScopeReadElsewhere: parser.loopScopeReads > 0 && (!macros.isEmpty || parser.definesBlocks))
        let compiled = names.map { name in
            let macro = macros[name]!
            return VTLCompiledMacro(parameters: macro.parameters.map(\.slot), body: compiler.block(macro.body))
        }
        return (compiler.block(nodes), compiled)
    }

    // MARK: - Nodes

    func block(_ nodes: [VTLNode]) -> VTLCompiledBlock {
        VTLCompiledBlock(nodes.compactMap(node))
    }

    /// The node compiled; `nil` for one that does nothing when it runs (a `#macro`'s place).
    private func node(_ node: VTLNode) -> VTLCompiledNode? {
        switch node {
        case .text(let text):
            return VTLTextNode(text)
        case .reference(let reference, let quiet, let source):
            return VTLPrintNode(self.reference(reference), quiet: quiet, source: source)
        case .set(let target, let value, _):
            return set(target, to: expression(value))
        case .conditional(let branches, let otherwise):
            return VTLConditionalNode(
                branches: branches.map { VTLConditionalNode.Branch(expression($0.condition), block($0.body)) }, otherwise: otherwise.map(block))
        case .loop(let variable, let collection, let body, let position, let readsScope):
            return VTLLoopNode(
                slot: variable.slot, collection: expression(collection), body: block(body), position: position,
                bindsLoopScope: readsScope || loopScopeReadElsewhere)
        case .breakLoop:
            return VTLControlNode(.breakLoop)
        case .stop:
            return VTLControlNode(.stop)
        case .returnValue(let value):
            return VTLControlNode(.returnValue(value.map(expression)))
        case .define(let variable, let body):
            return VTLDefineNode(slot: variable.slot, body: block(body))
        case .macroCall(let name, let arguments, let source, _):
            guard let index = macroIndexes[name] else { return VTLTextNode(source) }
            return VTLMacroCallNode(macro: index, arguments: arguments.map(expression))
        case .block(let body):
            return body.isEmpty ? nil : VTLBlockNode(block(body))
        }
    }

    private func set(_ target: VTLReference, to value: VTLCompiledExpression) -> VTLCompiledNode {
        guard let last = target.path.last else { return VTLSetVariableNode(slot: target.variable.slot, value: value) }
        let owner = reference(VTLReference(variable: target.variable, path: Array(target.path.dropLast()), position: target.position))
        switch last {
        case .property(let name):
            return VTLSetMemberNode(owner: owner, member: .property(name), value: value, position: target.position)
        case .index(let key):
            return VTLSetMemberNode(owner: owner, member: .index(expression(key)), value: value, position: target.position)
        case .method:
            return VTLSetMemberNode(owner: owner, member: .call, value: value, position: target.position)
        }
    }

    // MARK: - Expressions

    func expression(_ expression: VTLExpression) -> VTLCompiledExpression {
        switch expression {
        case .literal(let value):
            return VTLLiteralExpression(value)
        case .interpolated(let parts):
            return VTLInterpolation(parts.compactMap(part))
        case .list(let items):
            return VTLListLiteral(items.map(self.expression))
        case .map(let entries):
            return VTLMapLiteral(keys: entries.map { self.expression($0.key) }, values: entries.map { self.expression($0.value) })
        case .range(let first, let last):
            return VTLRangeExpression(self.expression(first), self.expression(last))
        case .reference(let reference):
            return self.reference(reference)
        case .not(let operand):
            return VTLNotExpression(self.expression(operand))
        case .negate(let operand):
            return VTLNegateExpression(self.expression(operand))
        case .binary(let op, let left, let right, let position):
            return binary(op, self.expression(left), self.expression(right), at: position)
        }
    }

    private func binary(_ op: VTLOperator, _ left: VTLCompiledExpression, _ right: VTLCompiledExpression, at position: VTLPosition) -> VTLCompiledExpression {
        switch op {
        case .or, .and: return VTLLogicalExpression(isAnd: op == .and, left, right)
        case .equal, .notEqual: return VTLEqualityExpression(negated: op == .notEqual, left, right)
        case .less, .lessOrEqual, .greater, .greaterOrEqual: return VTLComparisonExpression(op, left, right, at: position)
        case .plus, .minus, .times, .divide, .remainder: return VTLArithmeticExpression(op, left, right, at: position)
        }
    }

    /// A part of a double-quoted string: its text or its reference.
    private func part(_ node: VTLNode) -> VTLInterpolation.Part? {
        switch node {
        case .text(let text):
            return VTLInterpolation.TextPart(text)
        case .reference(let reference, let quiet, let source):
            return VTLInterpolation.ReferencePart(self.reference(reference), quiet: quiet, source: source)
        default:
            return nil
        }
    }

    // MARK: - References

    /// `$name` and its path, with `$util` and `$extensions` calls resolved: a root, then a
    /// chain of segments over it.
    func reference(_ reference: VTLReference) -> VTLCompiledExpression {
        let slot = reference.variable.slot, position = reference.position
        let segments = reference.path.map(segment)
        var root: VTLCompiledExpression = VTLVariableExpression(slot: slot)
        var rest = segments[...]
        switch reference.variable.name {
        case "util", "utils":
            let namespace = reference.path.prefix { if case .property = $0 { true } else { false } }
            let names = namespace.map { if case .property(let name) = $0 { name } else { "" } }
            if namespace.count < reference.path.count, case .method(let method, _) = reference.path[namespace.count],
                let call = segments[namespace.count] as? VTLMethodSegment {
                let general = VTLUtilCallExpression(
                    slot: slot, name: (names + [method.text]).joined(separator: "."), arguments: call.arguments,
                    segments: Array(segments[...namespace.count]), position: position)
                root = general
                if ["qr", "quiet"].contains(general.name), call.arguments.count == 1 {
                    root = VTLQuietExpression(general, argument: call.arguments.elements[0])
                }
                rest = segments[(namespace.count + 1)...]
            } else {
                root = VTLUtilNamespaceExpression(slot: slot, namespace: names.joined(separator: "."), position: position)
            }
        case "extensions":
            if case .method(let method, _)? = reference.path.first, let call = segments.first as? VTLMethodSegment {
                root = VTLExtensionsCallExpression(slot: slot, name: method.text, arguments: call.arguments, segment: call, position: position)
                rest = segments.dropFirst()
            }
        default:
            if let property = rest.first as? VTLPropertySegment {
                root = VTLVariablePropertyExpression(slot: slot, property: property, position: position)
                rest = rest.dropFirst()
            }
        }
        return rest.reduce(root) { VTLSegmentExpression($0, $1, at: position) }
    }

    private func segment(_ segment: VTLReference.Segment) -> VTLCompiledSegment {
        switch segment {
        case .property(let name): return VTLPropertySegment(name)
        case .method(let method, let arguments): return VTLMethodSegment(method, arguments.map(expression))
        case .index(let key): return VTLIndexSegment(expression(key))
        }
    }
}
