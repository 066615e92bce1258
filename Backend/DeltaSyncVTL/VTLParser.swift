/// Reads a template into ``VTLNode``s: text, references, and the directives AppSync's Velocity
/// (1.7 with `#return`) has. A directive alone on its line takes the line with it (its leading
/// whitespace and its line break), so templates can indent directives freely.
struct VTLParser {
    let chars: [Character]
    private let name: String
    var index = 0
    private var lineStarts: [Int] = [0]
    /// The template's `#macro`s by name, collected while parsing: a call may come before the
    /// definition, as Velocity 1.7 resolves calls when it renders.
    var macros: [String: VTLMacro] = [:]
    /// The variables the template names, each with its slot.
    var symbols = VTLSymbols()
    /// How many references name `$foreach` or `$velocityCount` so far: a loop whose body has
    /// none need not bind them (unless a macro or block could read them, ``VTLCompiler``).
    var loopScopeReads = 0
    /// Whether the template has a `#define`: renderings look for blocks only then.
    var definesBlocks = false
    static let directives: Set<String> = [
        "set", "if", "elseif", "else", "end", "foreach", "break", "return", "stop", "define", "macro", "noescape",
    ]
    /// Directives with a body up to `#end`: their header's line is taken before the body is read.
    static let blockDirectives: Set<String> = ["if", "foreach", "define", "macro", "noescape"]

    init(_ text: String, name: String) {
        chars = Array(text)
        self.name = name
        for (offset, character) in chars.enumerated() where character == "\n" { lineStarts.append(offset + 1) }
    }

    mutating func parse() throws(VTLError) -> [VTLNode] {
        let (nodes, end) = try nodes(until: [])
        if let end { throw error("#\(end.name) without a matching #if, #foreach, #define or #macro", at: end.position) }
        return nodes
    }

    // MARK: - Text and directives

    struct Terminator {
        var name: String
        var position: VTLPosition
        /// `#elseif`'s condition, read where the directive is.
        var condition: VTLExpression?
    }

    /// Nodes up to the end of the template, or up to one of `terminators` (`end`, `else`,
    /// `elseif`), which is consumed and returned.
    mutating func nodes(until terminators: Set<String>) throws(VTLError) -> ([VTLNode], Terminator?) {
        var nodes: [VTLNode] = []
        var text = ""
        func flush() {
            if !text.isEmpty { nodes.append(.text(text)) }
            text = ""
        }
        while index < chars.count {
            let character = chars[index]
            if character == "#" {
                if peek(1) == "#" {
                    // `##` comment: to the end of the line, the line break included.
                    while index < chars.count, chars[index] != "\n" { index += 1 }
                    if index < chars.count { index += 1 }
                    continue
                }
                if peek(1) == "*" {
                    let start = position(index)
                    index += 2
                    while index < chars.count, !(chars[index] == "*" && peek(1) == "#") { index += 1 }
                    guard index < chars.count else { throw error("#* comment without its closing *#", at: start) }
                    index += 2
                    continue
                }
                if peek(1) == "[", peek(2) == "[" {
                    index += 3
                    while index < chars.count, !(chars[index] == "]" && peek(1) == "]" && peek(2) == "#") {
                        text.append(chars[index])
                        index += 1
                    }
                    index += 3
                    continue
                }
                let start = index
                guard let directive = directiveName() else {
                    if let call = macroCall() {
                        if onlyBlanksBefore(start), consumeRestOfLineIfBlank() { Self.trimTrailingBlanks(&text) }
                        flush()
                        nodes.append(call)
                        continue
                    }
                    text.append(character)
                    index += 1
                    continue
                }
                let position = position(start)
                let aloneBefore = onlyBlanksBefore(start)
                switch directive {
                case "end", "else", "elseif":
                    guard terminators.contains(directive) else {
                        throw error("#\(directive) without a matching #if\(directive == "end" ? " or #foreach" : "")", at: position)
                    }
                    let condition = directive == "elseif" ? try parenthesized("elseif") : nil
                    if aloneBefore, consumeRestOfLineIfBlank() { Self.trimTrailingBlanks(&text) }
                    flush()
                    return (nodes, Terminator(name: directive, position: position, condition: condition))
                default:
                    let (node, tookLine) = try self.directive(directive, at: position, aloneOnLine: aloneBefore)
                    if tookLine { Self.trimTrailingBlanks(&text) }
                    flush()
                    nodes.append(node)
                }
                continue
            }
            if character == "$", let reference = try textReference() {
                flush()
                nodes.append(reference)
                continue
            }
            text.append(character)
            index += 1
        }
        flush()
        if let missing = terminators.first(where: { $0 == "end" }) {
            throw error("#\(missing) missing: a directive opened here is never closed", at: position(chars.count))
        }
        return (nodes, nil)
    }

    /// `#name` or `#{name}` of a known directive, consumed; `nil` (nothing consumed) otherwise.
    private mutating func directiveName() -> String? {
        var cursor = index + 1
        let formal = cursor < chars.count && chars[cursor] == "{"
        if formal { cursor += 1 }
        var name = ""
        while cursor < chars.count, chars[cursor].isLetter {
            name.append(chars[cursor])
            cursor += 1
        }
        guard Self.directives.contains(name) else { return nil }
        if formal {
            guard cursor < chars.count, chars[cursor] == "}" else { return nil }
            cursor += 1
        }
        index = cursor
        return name
    }

    /// A directive after its name; `tookLine` when it stood alone on its line and took the line
    /// (a block directive takes its header's line before its body is read).
    private mutating func directive(
        _ name: String, at position: VTLPosition, aloneOnLine: Bool
    ) throws(VTLError) -> (node: VTLNode, tookLine: Bool) {
        var tookLine = false
        let node = try directive(name, at: position) { (parser: inout VTLParser) in
            if aloneOnLine, parser.consumeRestOfLineIfBlank() { tookLine = true }
        }
        return (node, tookLine)
    }

    private mutating func directive(
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

    // MARK: - References

    /// A reference in text: `$x`, `$!x`, `${x}`, `$!{x}` with its path; `nil` (nothing consumed)
    /// when `$` starts no reference.
    private mutating func textReference() throws(VTLError) -> VTLNode? {
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

    private mutating func arguments(closing: Character) throws(VTLError) -> [VTLExpression] {
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

    // MARK: - Expressions

    private mutating func parenthesized(_ directive: String) throws(VTLError) -> VTLExpression {
        try open(directive)
        let value = try expression()
        try close(directive)
        return value
    }

    mutating func open(_ directive: String) throws(VTLError) {
        skipBlanks()
        guard current == "(" else { throw error("#\(directive) needs '('", at: position(index)) }
        index += 1
    }

    mutating func close(_ directive: String) throws(VTLError) {
        skipBlanks()
        guard current == ")" else { throw error("#\(directive)(...) needs its ')'", at: position(index)) }
        index += 1
    }

    mutating func expression() throws(VTLError) -> VTLExpression {
        var left = try conjunction()
        while true {
            skipBlanks()
            let at = position(index)
            if consume("||") || consumeWord("or") {
                left = .binary(.or, left, try conjunction(), at)
            } else {
                return left
            }
        }
    }

    private mutating func conjunction() throws(VTLError) -> VTLExpression {
        var left = try equality()
        while true {
            skipBlanks()
            let at = position(index)
            if consume("&&") || consumeWord("and") {
                left = .binary(.and, left, try equality(), at)
            } else {
                return left
            }
        }
    }

    private mutating func equality() throws(VTLError) -> VTLExpression {
        var left = try relation()
        while true {
            skipBlanks()
            let at = position(index)
            if consume("==") || consumeWord("eq") {
                left = .binary(.equal, left, try relation(), at)
            } else if consume("!=") || consumeWord("ne") {
                left = .binary(.notEqual, left, try relation(), at)
            } else {
                return left
            }
        }
    }

    private mutating func relation() throws(VTLError) -> VTLExpression {
        var left = try sum()
        while true {
            skipBlanks()
            let at = position(index)
            let op: VTLOperator
            if consume("<=") || consumeWord("le") {
                op = .lessOrEqual
            } else if consume(">=") || consumeWord("ge") {
                op = .greaterOrEqual
            } else if consume("<") || consumeWord("lt") {
                op = .less
            } else if consume(">") || consumeWord("gt") {
                op = .greater
            } else {
                return left
            }
            left = .binary(op, left, try sum(), at)
        }
    }

    private mutating func sum() throws(VTLError) -> VTLExpression {
        var left = try product()
        while true {
            skipBlanks()
            let at = position(index)
            if consume("+") {
                left = .binary(.plus, left, try product(), at)
            } else if current == "-", peek(1) != "-" {
                index += 1
                left = .binary(.minus, left, try product(), at)
            } else {
                return left
            }
        }
    }

    private mutating func product() throws(VTLError) -> VTLExpression {
        var left = try unary()
        while true {
            skipBlanks()
            let at = position(index)
            if consume("*") {
                left = .binary(.times, left, try unary(), at)
            } else if consume("/") {
                left = .binary(.divide, left, try unary(), at)
            } else if consume("%") {
                left = .binary(.remainder, left, try unary(), at)
            } else {
                return left
            }
        }
    }

    private mutating func unary() throws(VTLError) -> VTLExpression {
        skipBlanks()
        if current == "!", peek(1) != "=" {
            index += 1
            return .not(try unary())
        }
        if consumeWord("not") { return .not(try unary()) }
        if current == "-" {
            index += 1
            return .negate(try unary())
        }
        return try primary()
    }

    private mutating func primary() throws(VTLError) -> VTLExpression {
        skipBlanks()
        let start = position(index)
        guard let character = current else { throw error("an expression is missing", at: start) }
        switch character {
        case "$":
            guard let reference = try reference() else { throw error("'$' needs a name", at: start) }
            return .reference(reference)
        case "(":
            index += 1
            let inner = try expression()
            skipBlanks()
            guard current == ")" else { throw error("'(' needs its ')'", at: position(index)) }
            index += 1
            return inner
        case "\"":
            return try doubleQuoted()
        case "'":
            index += 1
            var text = ""
            while let next = current, next != "'" {
                text.append(next)
                index += 1
            }
            guard current == "'" else { throw error("a string opened here is never closed", at: start) }
            index += 1
            return .literal(.string(text))
        case "[":
            index += 1
            skipBlanks()
            if current == "]" {
                index += 1
                return .list([])
            }
            let first = try expression()
            skipBlanks()
            if consume("..") {
                let last = try expression()
                skipBlanks()
                guard current == "]" else { throw error("a range needs its ']'", at: position(index)) }
                index += 1
                return .range(first, last)
            }
            var items = [first]
            while current == "," {
                index += 1
                items.append(try expression())
                skipBlanks()
            }
            guard current == "]" else { throw error("a list needs ',' or ']'", at: position(index)) }
            index += 1
            return .list(items)
        case "{":
            index += 1
            var entries: [(key: VTLExpression, value: VTLExpression)] = []
            skipBlanks()
            if current == "}" {
                index += 1
                return .map(entries)
            }
            while true {
                let key = try expression()
                skipBlanks()
                guard current == ":" else { throw error("a map entry needs ':'", at: position(index)) }
                index += 1
                entries.append((key, try expression()))
                skipBlanks()
                if current == "," {
                    index += 1
                    continue
                }
                guard current == "}" else { throw error("a map needs ',' or '}'", at: position(index)) }
                index += 1
                return .map(entries)
            }
        default:
            if character.isNumber { return number() }
            let word = word()
            switch word {
            case "true": return .literal(.bool(true))
            case "false": return .literal(.bool(false))
            case "null": return .literal(.null)
            default: throw error(word.isEmpty ? "unexpected '\(character)'" : "unexpected '\(word)'", at: start)
            }
        }
    }

    private mutating func number() -> VTLExpression {
        var digits = ""
        var isDecimal = false
        while let next = current, next.isNumber || (next == "." && !isDecimal && peek(1)?.isNumber == true) {
            if next == "." { isDecimal = true }
            digits.append(next)
            index += 1
        }
        if isDecimal { return .literal(.double(Double(digits) ?? 0)) }
        return .literal(Int(digits).map(VTLValue.int) ?? .double(Double(digits) ?? 0))
    }

    /// A double-quoted string: text with references, `\"` for a quote.
    private mutating func doubleQuoted() throws(VTLError) -> VTLExpression {
        let start = position(index)
        index += 1
        var parts: [VTLNode] = []
        var text = ""
        while let next = current, next != "\"" {
            if next == "\\", let escaped = peek(1), escaped == "\"" || escaped == "\\" {
                text.append(escaped)
                index += 2
                continue
            }
            if next == "$", let reference = try textReference() {
                if !text.isEmpty { parts.append(.text(text)) }
                text = ""
                parts.append(reference)
                continue
            }
            text.append(next)
            index += 1
        }
        guard current == "\"" else { throw error("a string opened here is never closed", at: start) }
        index += 1
        if !text.isEmpty { parts.append(.text(text)) }
        if parts.count <= 1, case .text(let only)? = parts.first { return .literal(.string(only)) }
        if parts.isEmpty { return .literal(.string("")) }
        return .interpolated(parts)
    }

    // MARK: - Characters

    var current: Character? { index < chars.count ? chars[index] : nil }

    func peek(_ offset: Int) -> Character? {
        index + offset < chars.count ? chars[index + offset] : nil
    }

    mutating func skipBlanks() {
        while let next = current, next.isWhitespace { index += 1 }
    }

    private mutating func consume(_ text: String) -> Bool {
        let characters = Array(text)
        guard index + characters.count <= chars.count, Array(chars[index..<(index + characters.count)]) == characters else { return false }
        index += characters.count
        return true
    }

    /// A word operator (`and`, `eq`, ...) not followed by more of a name.
    private mutating func consumeWord(_ word: String) -> Bool {
        let characters = Array(word)
        let end = index + characters.count
        guard end <= chars.count, Array(chars[index..<end]) == characters else { return false }
        if end < chars.count, chars[end].isLetter || chars[end].isNumber || chars[end] == "_" { return false }
        index = end
        return true
    }

    mutating func identifier() -> String {
        var name = ""
        while let next = current, next.isLetter || next.isNumber || next == "_" || next == "-" {
            // A hyphen belongs to the name only when a letter follows (`$x-1` is subtraction).
            if next == "-", !(peek(1)?.isLetter ?? false) { break }
            name.append(next)
            index += 1
        }
        return name
    }

    private mutating func word() -> String {
        var text = ""
        while let next = current, next.isLetter {
            text.append(next)
            index += 1
        }
        return text
    }

    /// After a directive: blanks to the end of the line are consumed with the line break when
    /// nothing else follows on the line.
    mutating func consumeRestOfLineIfBlank() -> Bool {
        var cursor = index
        while cursor < chars.count, chars[cursor] == " " || chars[cursor] == "\t" || chars[cursor] == "\r" { cursor += 1 }
        guard cursor == chars.count || chars[cursor] == "\n" else { return false }
        index = min(cursor + 1, chars.count)
        return true
    }

    /// Whether only blanks stand between the line's start and `offset`.
    func onlyBlanksBefore(_ offset: Int) -> Bool {
        var cursor = offset - 1
        while cursor >= 0, chars[cursor] == " " || chars[cursor] == "\t" { cursor -= 1 }
        return cursor < 0 || chars[cursor] == "\n"
    }

    static func trimTrailingBlanks(_ text: inout String) {
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
    }

    func position(_ offset: Int) -> VTLPosition {
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return VTLPosition(line: low + 1, column: offset - lineStarts[low] + 1)
    }

    func error(_ message: String, at position: VTLPosition) -> VTLError {
        VTLError(template: name, position: position, message: message)
    }
}
