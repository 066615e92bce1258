/// Literals: strings (`"..."` with references, `'...'` as they are), numbers, lists, ranges
/// and maps, and the primary expressions they stand in.
extension VTLParser {
    /// A reference, a parenthesized expression, a literal, `true`, `false` or `null`.
    mutating func primary() throws(VTLError) -> VTLExpression {
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
            return try singleQuoted()
        case "[":
            return try listOrRange()
        case "{":
            return try mapLiteral()
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

    /// `'text'`: as it is, no references.
    private mutating func singleQuoted() throws(VTLError) -> VTLExpression {
        let start = position(index)
        index += 1
        var text = ""
        while let next = current, next != "'" {
            text.append(next)
            index += 1
        }
        guard current == "'" else { throw error("a string opened here is never closed", at: start) }
        index += 1
        return .literal(.string(text))
    }

    /// `[a, b]`, `[]`, or the range `[a..b]`.
    private mutating func listOrRange() throws(VTLError) -> VTLExpression {
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
    }

    /// `{key: value, ...}`, keys being expressions.
    private mutating func mapLiteral() throws(VTLError) -> VTLExpression {
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
}
