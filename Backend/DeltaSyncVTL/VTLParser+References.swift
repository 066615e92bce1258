/// References: `$x`, `$!x`, `${x}`, with their paths of properties, calls and indexes.
extension VTLParser {
    /// A reference in text: `$x`, `$!x`, `${x}`, `$!{x}` with its path; `nil` (nothing consumed)
    /// when `$` starts no reference.
    mutating func textReference() throws(VTLError) -> VTLNode? {
        let start = index
        guard let reference = try reference() else { return nil }
        let quiet = chars[start + 1] == "!"
        return .reference(reference, quiet: quiet, source: String(chars[start..<index]))
    }

    /// `$x.a.b(1)[2]`; `nil`, with nothing consumed, when no identifier follows `$`.
    mutating func reference() throws(VTLError) -> VTLReference? {
        let start = index
        var cursor = index + 1
        if cursor < chars.count, chars[cursor] == "!" { cursor += 1 }
        let formal = cursor < chars.count && chars[cursor] == "{"
        if formal { cursor += 1 }
        guard cursor < chars.count, chars[cursor].isLetter || chars[cursor] == "_" else { return nil }
        index = cursor
        let name = identifier()
        var path: [VTLReference.Segment] = []
        while index < chars.count {
            if chars[index] == ".", index + 1 < chars.count, chars[index + 1].isLetter || chars[index + 1] == "_" {
                index += 1
                let member = identifier()
                if current == "(" {
                    index += 1
                    path.append(.method(VTLMethodName(member), try arguments(closing: ")")))
                } else {
                    path.append(.property(member))
                }
            } else if chars[index] == "[" {
                index += 1
                let key = try expression()
                skipBlanks()
                guard current == "]" else { throw error("'[' of \(String(chars[start..<index])) needs its ']'", at: position(index)) }
                index += 1
                path.append(.index(key))
            } else {
                break
            }
        }
        if formal {
            guard current == "}" else { throw error("${ needs its closing }", at: position(index)) }
            index += 1
        }
        if name == VTLSymbols.foreach.name || name == VTLSymbols.velocityCount.name { loopScopeReads += 1 }
        return VTLReference(variable: symbols.variable(name), path: path, position: position(start))
    }

    mutating func arguments(closing: Character) throws(VTLError) -> [VTLExpression] {
        var arguments: [VTLExpression] = []
        skipBlanks()
        if current == closing {
            index += 1
            return arguments
        }
        while true {
            arguments.append(try expression())
            skipBlanks()
            if current == "," {
                index += 1
                continue
            }
            guard current == closing else { throw error("expected ',' or '\(closing)'", at: position(index)) }
            index += 1
            return arguments
        }
    }
}
