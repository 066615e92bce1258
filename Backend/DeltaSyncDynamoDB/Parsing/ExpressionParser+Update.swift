/// Update expressions (`SET`, `REMOVE`, `ADD`, `DELETE` clauses in any order, each at most
/// once) and projection expressions (a comma list of paths).
extension ExpressionParser {
    mutating func wholeUpdate() throws(DynamoDBError) -> [UpdateAction] {
        var actions: [UpdateAction] = []
        var seen: Set<String> = []
        while current.kind != .end {
            guard case .word(let word) = current.kind, ["SET", "REMOVE", "ADD", "DELETE"].contains(word.uppercased()) else {
                throw syntaxError()
            }
            let clause = word.uppercased()
            guard seen.insert(clause).inserted else {
                throw invalid("The \"\(clause)\" section can only be used once in an update expression;")
            }
            advance()
            repeat {
                actions.append(try action(clause))
            } while take(",")
        }
        try Self.checkClashes(actions.map(\.path), kind: kind)
        return actions
    }

    private mutating func action(_ clause: String) throws(DynamoDBError) -> UpdateAction {
        let path = try path()
        switch clause {
        case "SET":
            try expect("=")
            return .set(path, try setValue())
        case "REMOVE":
            return .remove(path)
        default:
            guard case .value(let placeholder) = current.kind else { throw syntaxError() }
            advance()
            let value = try value(placeholder)
            let allowed = clause == "ADD" ? value.isSet || value.typeName == "N" : value.isSet
            guard allowed else {
                throw invalid(
                    "Incorrect operand type for operator or function; operator: \(clause), operand type: \(value.longTypeName), typeSet: ALLOWED_FOR_\(clause)_OPERAND")
            }
            return clause == "ADD" ? .add(path, value) : .delete(path, value)
        }
    }

    /// `operand`, `operand + operand` or `operand - operand` (one operator at most).
    private mutating func setValue() throws(DynamoDBError) -> ExpressionOperand {
        let left = try operand(.update)
        for symbol in ["+", "-"] where take(symbol) {
            let right = try operand(.update)
            for case .value(let value) in [left, right] where value.typeName != "N" {
                throw operandTypeError(symbol, value)
            }
            return symbol == "+" ? .plus(left, right) : .minus(left, right)
        }
        return left
    }

    mutating func wholeProjection() throws(DynamoDBError) -> [DocumentPath] {
        var paths = [try path()]
        while take(",") { paths.append(try path()) }
        try expectEnd()
        try Self.checkClashes(paths, kind: kind)
        return paths
    }

    /// DynamoDB refuses two paths of one update or projection where one is the other, holds
    /// the other, or reads a list index where the other reads a map member.
    static func checkClashes(_ paths: [DocumentPath], kind: ExpressionKind) throws(DynamoDBError) {
        for (offset, path) in paths.enumerated() {
            for earlier in paths[..<offset] {
                guard let clash = earlier.clash(with: path) else { continue }
                let verb = clash == .overlap ? "overlap" : "conflict"
                throw DynamoDBError.validation(
                    "Invalid \(kind.rawValue): Two document paths \(verb) with each other; must remove or rewrite one of these paths; path one: \(earlier.bracketedDescription), path two: \(path.bracketedDescription)")
            }
        }
    }
}
