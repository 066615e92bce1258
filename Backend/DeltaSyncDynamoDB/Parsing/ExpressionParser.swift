import DeltaSyncCore

/// A recursive-descent reader of DynamoDB's expression language over one expression's tokens:
/// paths, operands and functions here; conditions and updates in extensions. It replaces
/// `#names` and `:values` as it reads and records which it used.
struct ExpressionParser {
    /// Where an operand appears: conditions allow `size`, an update's `SET` allows
    /// `if_not_exists` and `list_append`.
    enum OperandContext { case condition, update }

    let text: String
    let kind: ExpressionKind
    let attributes: ExpressionAttributes
    let tokens: [ExpressionToken]
    var position = 0
    var placeholders = ExpressionPlaceholders()
    /// The token span of the parenthesised group read last, to find redundant parentheses.
    var lastGroup: Range<Int>?

    /// Words DynamoDB reads as keywords; a bare attribute name cannot be one (`#name` can).
    static let keywords: Set<String> = ["AND", "OR", "NOT", "BETWEEN", "IN", "SET", "REMOVE", "ADD", "DELETE"]
    static let functionNames: Set<String> = [
        "attribute_exists", "attribute_not_exists", "attribute_type", "begins_with", "contains", "size",
        "if_not_exists", "list_append",
    ]

    init(_ text: String, kind: ExpressionKind, attributes: ExpressionAttributes) throws(DynamoDBError) {
        self.text = text
        self.kind = kind
        self.attributes = attributes
        tokens = ExpressionToken.tokens(of: text)
        guard tokens.count > 1 else { throw DynamoDBError.validation("Invalid \(kind.rawValue): The expression can not be empty;") }
    }

    // MARK: - Tokens

    var current: ExpressionToken { tokens[position] }

    func peek(_ offset: Int) -> ExpressionToken {
        tokens[min(position + offset, tokens.count - 1)]
    }

    mutating func advance() {
        if position < tokens.count - 1 { position += 1 }
    }

    mutating func take(_ symbol: String) -> Bool {
        guard current.kind == .symbol(symbol) else { return false }
        advance()
        return true
    }

    mutating func takeKeyword(_ keyword: String) -> Bool {
        guard current.isKeyword(keyword) else { return false }
        advance()
        return true
    }

    mutating func expect(_ symbol: String) throws(DynamoDBError) {
        guard take(symbol) else { throw syntaxError() }
    }

    func expectEnd() throws(DynamoDBError) {
        guard current.kind == .end else { throw syntaxError() }
    }

    // MARK: - Errors

    /// DynamoDB's syntax error at the current token: the token, and the text from the token
    /// before it to the token after it.
    func syntaxError() -> DynamoDBError {
        let lower = position > 0 ? tokens[position - 1].range.lowerBound : current.range.lowerBound
        let upper = position + 1 < tokens.count ? tokens[position + 1].range.upperBound : current.range.upperBound
        return invalid("Syntax error; token: \"\(current.text(in: text))\", near: \"\(text[lower..<max(lower, upper)])\"")
    }

    /// `Invalid <Kind>Expression: <detail>`.
    func invalid(_ detail: String) -> DynamoDBError {
        .validation("Invalid \(kind.rawValue): \(detail)")
    }

    func operandTypeError(_ function: String, _ value: AttributeValue) -> DynamoDBError {
        invalid("Incorrect operand type for operator or function; operator or function: \(function), operand type: \(value.typeName)")
    }

    // MARK: - Paths

    /// `name`, `#n`, followed by any `.member` and `[index]`.
    mutating func path() throws(DynamoDBError) -> DocumentPath {
        var elements: [DocumentPath.Element] = [.name(try pathName())]
        while true {
            if take(".") {
                elements.append(.name(try pathName()))
            } else if current.kind == .symbol("[") {
                advance()
                guard case .number(let index) = current.kind else { throw syntaxError() }
                advance()
                try expect("]")
                elements.append(.index(index))
            } else {
                return DocumentPath(elements)
            }
        }
    }

    private mutating func pathName() throws(DynamoDBError) -> String {
        switch current.kind {
        case .name(let placeholder):
            guard let name = attributes.names[placeholder] else {
                throw invalid("An expression attribute name used in the document path is not defined; attribute name: \(placeholder)")
            }
            placeholders.names.insert(placeholder)
            advance()
            return name
        case .word(let word):
            if Self.keywords.contains(word.uppercased()) {
                throw invalid("Attribute name is a reserved keyword; reserved keyword: \(word)")
            }
            advance()
            return word
        default:
            throw syntaxError()
        }
    }

    // MARK: - Operands

    /// `:v`, a path, or a function of the context (`size(p)`; `if_not_exists(p, v)`,
    /// `list_append(a, b)`).
    mutating func operand(_ context: OperandContext) throws(DynamoDBError) -> ExpressionOperand {
        switch current.kind {
        case .value(let placeholder):
            advance()
            return .value(try value(placeholder))
        case .word(let word) where peek(1).kind == .symbol("("):
            return try functionOperand(word, context)
        case .word, .name:
            return .path(try path())
        default:
            throw syntaxError()
        }
    }

    mutating func value(_ placeholder: String) throws(DynamoDBError) -> AttributeValue {
        guard let value = attributes.values[placeholder] else {
            throw invalid("An expression attribute value used in expression is not defined; attribute value: \(placeholder)")
        }
        placeholders.values.insert(placeholder)
        return value
    }

    private mutating func functionOperand(_ name: String, _ context: OperandContext) throws(DynamoDBError) -> ExpressionOperand {
        let arguments = try functionArguments(context)
        switch (name.lowercased(), context) {
        case ("size", .condition):
            try checkCount(name, arguments, 1)
            return .size(try requirePath(name, arguments[0]))
        case ("if_not_exists", .update):
            try checkCount(name, arguments, 2)
            return .ifNotExists(try requirePath(name, arguments[0]), arguments[1])
        case ("list_append", .update):
            try checkCount(name, arguments, 2)
            for case .value(let value) in arguments {
                guard case .list = value else { throw operandTypeError(name, value) }
            }
            return .listAppend(arguments[0], arguments[1])
        case (let lowercased, _) where Self.functionNames.contains(lowercased):
            throw invalid("The function is not allowed to be used this way in an expression; function: \(name)")
        default:
            throw invalid("Invalid function name; function: \(name)")
        }
    }

    /// `name ( operand, ... )`, from the name on.
    mutating func functionArguments(_ context: OperandContext) throws(DynamoDBError) -> [ExpressionOperand] {
        advance()
        try expect("(")
        var arguments = [try operand(context)]
        while take(",") { arguments.append(try operand(context)) }
        try expect(")")
        return arguments
    }

    func checkCount(_ function: String, _ arguments: [ExpressionOperand], _ count: Int) throws(DynamoDBError) {
        guard arguments.count == count else {
            throw invalid("Incorrect number of operands for operator or function; operator or function: \(function), number of operands: \(arguments.count)")
        }
    }

    func requirePath(_ function: String, _ operand: ExpressionOperand) throws(DynamoDBError) -> DocumentPath {
        guard case .path(let path) = operand else {
            throw invalid("Operator or function requires a document path; operator or function: \(function)")
        }
        return path
    }
}
