import DeltaSyncCore

/// Reads condition, key condition, filter, update and projection expressions, with their
/// `expressionNames` (`#n`) and `expressionValues` (`:v`, typed values).
///
/// ```swift
/// var parser = try DynamoDBExpressionParser(
///     "attribute_exists(#id) AND #n > :min", kind: "ConditionExpression",
///     names: ["#id": "id", "#n": "rating"], values: [":min": ["N": "3"]])
/// let condition = try parser.condition()
/// ```
struct DynamoDBExpressionParser {
    private let tokens: [DynamoDBToken]
    private var position = 0
    private let text: String
    private let kind: String
    private let names: [String: JSONValue]
    private let values: [String: JSONValue]

    init(_ text: String, kind: String, names: [String: JSONValue], values: [String: JSONValue]) throws(DataSourceFailure) {
        self.text = text
        self.kind = kind
        self.names = names
        self.values = values
        tokens = try DynamoDBToken.tokens(text, kind: kind)
        guard !tokens.isEmpty else { throw .validation("Invalid \(kind): The expression can not be empty;") }
    }

    // MARK: - Conditions

    /// The whole text as one condition.
    mutating func condition() throws(DataSourceFailure) -> DynamoDBCondition {
        let condition = try orCondition()
        try expectEnd()
        return condition
    }

    private mutating func orCondition() throws(DataSourceFailure) -> DynamoDBCondition {
        var condition = try andCondition()
        while takeWord("OR") { condition = .or(condition, try andCondition()) }
        return condition
    }

    private mutating func andCondition() throws(DataSourceFailure) -> DynamoDBCondition {
        var condition = try notCondition()
        while takeWord("AND") { condition = .and(condition, try notCondition()) }
        return condition
    }

    private mutating func notCondition() throws(DataSourceFailure) -> DynamoDBCondition {
        if takeWord("NOT") { return .not(try notCondition()) }
        if take(.symbol("(")) {
            let inner = try orCondition()
            try expect(.symbol(")"))
            return inner
        }
        if case .word(let word)? = peek, let function = try functionCondition(word.lowercased()) { return function }
        let left = try operand()
        if takeWord("BETWEEN") {
            let low = try operand()
            guard takeWord("AND") else { throw unexpected() }
            return .between(left, low, try operand())
        }
        if takeWord("IN") {
            try expect(.symbol("("))
            var options = [try operand()]
            while take(.symbol(",")) { options.append(try operand()) }
            try expect(.symbol(")"))
            guard options.count <= 100 else { throw .validation("Invalid \(kind): The IN operator is provided with too many operands; number of operands: \(options.count)") }
            return .oneOf(left, options)
        }
        guard case .symbol(let symbol)? = peek, let comparator = DynamoDBCondition.Comparator(rawValue: symbol) else { throw unexpected() }
        position += 1
        return .compare(left, comparator, try operand())
    }

    private mutating func functionCondition(_ name: String) throws(DataSourceFailure) -> DynamoDBCondition? {
        guard ["attribute_exists", "attribute_not_exists", "attribute_type", "begins_with", "contains"].contains(name),
            position + 1 < tokens.count, tokens[position + 1] == .symbol("(")
        else { return nil }
        position += 2
        let condition: DynamoDBCondition
        switch name {
        case "attribute_exists": condition = .attributeExists(try path())
        case "attribute_not_exists": condition = .attributeNotExists(try path())
        case "attribute_type":
            let path = try path()
            try expect(.symbol(","))
            condition = .attributeType(path, try operand())
        default:
            let subject = try operand()
            try expect(.symbol(","))
            let argument = try operand()
            condition = name == "begins_with" ? .beginsWith(subject, argument) : .contains(subject, argument)
        }
        try expect(.symbol(")"))
        return condition
    }

    // MARK: - Operands and paths

    mutating func operand() throws(DataSourceFailure) -> DynamoDBOperand {
        if case .value(let name)? = peek {
            position += 1
            return .value(try value(name))
        }
        if case .word(let word)? = peek, word.lowercased() == "size", position + 1 < tokens.count, tokens[position + 1] == .symbol("(") {
            position += 2
            let path = try path()
            try expect(.symbol(")"))
            return .size(path)
        }
        return .path(try path())
    }

    /// A value for the update's `SET`: an operand, `+`/`-` of two, or a function.
    mutating func setValue() throws(DataSourceFailure) -> DynamoDBOperand {
        let left = try setTerm()
        if take(.symbol("+")) { return .plus(left, try setTerm()) }
        if take(.symbol("-")) { return .minus(left, try setTerm()) }
        return left
    }

    private mutating func setTerm() throws(DataSourceFailure) -> DynamoDBOperand {
        guard case .word(let word)? = peek, position + 1 < tokens.count, tokens[position + 1] == .symbol("(") else { return try operand() }
        switch word.lowercased() {
        case "if_not_exists":
            position += 2
            let path = try path()
            try expect(.symbol(","))
            let fallback = try setValue()
            try expect(.symbol(")"))
            return .ifNotExists(path, fallback)
        case "list_append":
            position += 2
            let first = try setValue()
            try expect(.symbol(","))
            let second = try setValue()
            try expect(.symbol(")"))
            return .listAppend(first, second)
        default:
            return try operand()
        }
    }

    mutating func path() throws(DataSourceFailure) -> DynamoDBPath {
        var path: DynamoDBPath = [.name(try pathName())]
        while true {
            if take(.symbol(".")) {
                path.append(.name(try pathName()))
            } else if take(.symbol("[")) {
                guard case .number(let index)? = peek else { throw unexpected() }
                position += 1
                try expect(.symbol("]"))
                path.append(.index(index))
            } else {
                return path
            }
        }
    }

    private mutating func pathName() throws(DataSourceFailure) -> String {
        switch peek {
        case .name(let placeholder)?:
            position += 1
            guard let name = names["#" + placeholder]?.stringValue else {
                throw .validation("Invalid \(kind): An expression attribute name used in the document path is not defined; attribute name: #\(placeholder)")
            }
            return name
        case .word(let word)?:
            position += 1
            return word
        default:
            throw unexpected()
        }
    }

    private func value(_ placeholder: String) throws(DataSourceFailure) -> JSONValue {
        guard let typed = values[":" + placeholder] else {
            throw .validation("Invalid \(kind): An expression attribute value used in expression is not defined; attribute value: :\(placeholder)")
        }
        return try DynamoDBAttributeValue.plain(typed)
    }

    // MARK: - Tokens

    var peek: DynamoDBToken? { position < tokens.count ? tokens[position] : nil }
    var isAtEnd: Bool { position >= tokens.count }

    mutating func take(_ token: DynamoDBToken) -> Bool {
        guard peek == token else { return false }
        position += 1
        return true
    }

    /// A keyword, in any case.
    mutating func takeWord(_ word: String) -> Bool {
        guard case .word(let found)? = peek, found.uppercased() == word else { return false }
        position += 1
        return true
    }

    mutating func expect(_ token: DynamoDBToken) throws(DataSourceFailure) {
        guard take(token) else { throw unexpected() }
    }

    func expectEnd() throws(DataSourceFailure) {
        guard isAtEnd else { throw unexpected() }
    }

    func unexpected() -> DataSourceFailure {
        DynamoDBToken.syntaxError(kind, peek?.text ?? "<EOF>", text)
    }
}
