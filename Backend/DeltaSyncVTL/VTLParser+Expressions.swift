/// Expressions by precedence: `||`, `&&`, `==`/`!=`, comparisons, `+`/`-`, `*`/`/`/`%`,
/// unary `!` and `-`, then the literals and references of `VTLParser+Literals`.
extension VTLParser {
    mutating func parenthesized(_ directive: String) throws(VTLError) -> VTLExpression {
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

    mutating func conjunction() throws(VTLError) -> VTLExpression {
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

    mutating func equality() throws(VTLError) -> VTLExpression {
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

    mutating func relation() throws(VTLError) -> VTLExpression {
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

    mutating func sum() throws(VTLError) -> VTLExpression {
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

    mutating func product() throws(VTLError) -> VTLExpression {
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

    mutating func unary() throws(VTLError) -> VTLExpression {
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
}
