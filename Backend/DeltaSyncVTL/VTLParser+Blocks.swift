/// `#define`, `#macro`, `#noescape` and macro calls, as Velocity 1.7 reads them.
extension VTLParser {
    /// A block directive after its name, up to its `#end`. A `#macro` is kept in ``macros``
    /// and leaves nothing where it stands.
    mutating func block(
        _ name: String, at position: VTLPosition, afterHeader: (inout VTLParser) -> Void
    ) throws(VTLError) -> VTLNode {
        switch name {
        case "define":
            try open(name)
            skipBlanks()
            guard current == "$", let target = try reference(), target.path.isEmpty else {
                throw error("#define needs a variable to define, as #define($block)", at: position)
            }
            try close(name)
            afterHeader(&self)
            let (body, _) = try nodes(until: ["end"])
            definesBlocks = true
            return .define(target.variable, body)
        case "macro":
            try open(name)
            skipBlanks()
            let macroName = identifier()
            guard let first = macroName.first, first.isLetter else {
                throw error("#macro needs a name first, as #macro(greet $name)", at: self.position(index))
            }
            var parameters: [VTLVariable] = []
            while true {
                skipBlanks()
                if current == "," {
                    index += 1
                    continue
                }
                if current == ")" {
                    index += 1
                    break
                }
                guard current == "$", let parameter = try reference(), parameter.path.isEmpty else {
                    throw error("#macro(\(macroName) ...) takes its parameters as $name, up to ')'", at: self.position(index))
                }
                parameters.append(parameter.variable)
            }
            afterHeader(&self)
            let (body, _) = try nodes(until: ["end"])
            macros[macroName] = VTLMacro(parameters: parameters, body: body)
            return .block([])
        default:
            // `#noescape` or `#noescape()`.
            if current == "(", peek(1) == ")" { index += 2 }
            afterHeader(&self)
            let (body, _) = try nodes(until: ["end"])
            return .block(body)
        }
    }

    /// `#name(arguments)` where `name` is no directive: a macro call, whichever macro the name
    /// has when it runs. `nil`, with nothing consumed, when no name and `(` follow `#` or the
    /// arguments do not read as expressions: then the text stays text.
    mutating func macroCall() -> VTLNode? {
        let start = index
        guard index + 1 < chars.count, chars[index + 1].isLetter else { return nil }
        index += 1
        let name = identifier()
        guard current == "(" else {
            index = start
            return nil
        }
        index += 1
        do {
            let arguments = try macroArguments()
            return .macroCall(name, arguments, source: String(chars[start..<index]), position(start))
        } catch {
            index = start
            return nil
        }
    }

    /// Arguments separated by blanks or commas, up to `)`: `#name($a $b)`, `#name($a, "b")`.
    private mutating func macroArguments() throws(VTLError) -> [VTLExpression] {
        var arguments: [VTLExpression] = []
        while true {
            skipBlanks()
            guard let next = current else { throw error("a macro call needs its ')'", at: position(index)) }
            if next == ")" {
                index += 1
                return arguments
            }
            if next == ",", !arguments.isEmpty {
                index += 1
                continue
            }
            arguments.append(try expression())
        }
    }
}
