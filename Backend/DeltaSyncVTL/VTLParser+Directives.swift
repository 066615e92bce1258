/// `#set`, `#if`/`#elseif`/`#else`, `#foreach`, `#break`, `#stop` and `#return`, after their
/// names; the block directives are in `VTLParser+Blocks`.
extension VTLParser {
    mutating func directive(
        _ name: String, at position: VTLPosition, aloneOnLine: Bool
    ) throws(VTLError) -> (node: VTLNode, tookLine: Bool) {
        var tookLine = false
        let node = try directive(name, at: position) { (parser: inout VTLParser) in
            if aloneOnLine, parser.consumeRestOfLineIfBlank() { tookLine = true }
        }
        return (node, tookLine)
    }

    mutating func directive(
        _ name: String, at position: VTLPosition, afterHeader: (inout VTLParser) -> Void
    ) throws(VTLError) -> VTLNode {
        defer { if !Self.blockDirectives.contains(name) { afterHeader(&self) } }
        switch name {
        case "set":
            try open(name)
            skipBlanks()
            guard current == "$", let target = try reference() else { throw error("#set needs a reference to set, as #set($x = 1)", at: position) }
            skipBlanks()
            guard current == "=" else { throw error("#set needs '=' after the reference", at: self.position(index)) }
            index += 1
            let value = try expression()
            try close(name)
            return .set(target, value, position)
        case "if":
            var branches: [(condition: VTLExpression, body: [VTLNode])] = []
            var condition = try parenthesized(name)
            afterHeader(&self)
            while true {
                let (body, end) = try nodes(until: ["end", "else", "elseif"])
                branches.append((condition, body))
                switch end?.name {
                case "elseif":
                    condition = end?.condition ?? .literal(.bool(false))
                case "else":
                    let (otherwise, _) = try nodes(until: ["end"])
                    return .conditional(branches, otherwise: otherwise)
                default:
                    return .conditional(branches, otherwise: nil)
                }
            }
        case "foreach":
            try open(name)
            skipBlanks()
            guard current == "$", let variable = try reference(), variable.path.isEmpty else {
                throw error("#foreach needs a variable, as #foreach($item in $list)", at: position)
            }
            skipBlanks()
            guard word() == "in" else { throw error("#foreach needs 'in' after its variable", at: self.position(index)) }
            let collection = try expression()
            try close(name)
            afterHeader(&self)
            let reads = loopScopeReads
            let (body, _) = try nodes(until: ["end"])
            return .loop(variable: variable.variable, over: collection, body: body, position, readsScope: loopScopeReads > reads)
        case "define", "macro", "noescape":
            return try block(name, at: position, afterHeader: afterHeader)
        case "break":
            return .breakLoop
        case "stop":
            return .stop
        case "return":
            guard current == "(" else { return .returnValue(nil) }
            return .returnValue(try parenthesized(name))
        default:
            throw error("unknown directive #\(name)", at: position)
        }
    }
}
