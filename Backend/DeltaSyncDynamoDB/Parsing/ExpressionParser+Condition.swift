/// Conditions, by DynamoDB's precedence from loosest to tightest: `OR`, `AND`, `NOT`,
/// functions, `BETWEEN`, `IN`, comparators. Comparisons, `BETWEEN` and `IN` take operands, not
/// conditions, so their relative order needs no rule of its own here.
extension ExpressionParser {
    /// The whole text as one condition.
    mutating func wholeCondition() throws(DynamoDBError) -> ConditionNode {
        let condition = try orCondition()
        try expectEnd()
        return condition
    }

    private mutating func orCondition() throws(DynamoDBError) -> ConditionNode {
        var condition = try andCondition()
        while takeKeyword("OR") { condition = .or(condition, try andCondition()) }
        return condition
    }

    private mutating func andCondition() throws(DynamoDBError) -> ConditionNode {
        var condition = try notCondition()
        while takeKeyword("AND") { condition = .and(condition, try notCondition()) }
        return condition
    }

    private mutating func notCondition() throws(DynamoDBError) -> ConditionNode {
        if takeKeyword("NOT") { return .not(try notCondition()) }
        return try primaryCondition()
    }

    private mutating func primaryCondition() throws(DynamoDBError) -> ConditionNode {
        if current.kind == .symbol("(") { return try group() }
        if case .word(let word) = current.kind, peek(1).kind == .symbol("("), Self.conditionFunctions.contains(word.lowercased()) {
            return try functionCondition(word)
        }
        let subject = try operand(.condition)
        if takeKeyword("BETWEEN") {
            let low = try operand(.condition)
            guard takeKeyword("AND") else { throw syntaxError() }
            let high = try operand(.condition)
            try checkBounds(low, high)
            return .between(subject, low, high)
        }
        if takeKeyword("IN") {
            try expect("(")
            var options = [try operand(.condition)]
            while take(",") { options.append(try operand(.condition)) }
            try expect(")")
            guard options.count <= 100 else {
                throw invalid("The IN operator is provided with too many operands; number of operands: \(options.count)")
            }
            return .in(subject, options)
        }
        guard case .symbol(let symbol) = current.kind, let comparator = ConditionNode.Comparator(rawValue: symbol) else {
            throw syntaxError()
        }
        advance()
        return .compare(subject, comparator, try operand(.condition))
    }

    /// `( condition )`; DynamoDB refuses a group that only wraps another group.
    private mutating func group() throws(DynamoDBError) -> ConditionNode {
        let open = position
        advance()
        let inner = try orCondition()
        try expect(")")
        let close = position - 1
        if lastGroup == (open + 1)..<(close - 1) {
            throw invalid("The expression has redundant parentheses;")
        }
        lastGroup = open..<close
        return inner
    }

    /// The functions that are conditions themselves (`size` and the update functions are operands).
    static let conditionFunctions: Set<String> = ["attribute_exists", "attribute_not_exists", "attribute_type", "begins_with", "contains"]

    private mutating func functionCondition(_ name: String) throws(DynamoDBError) -> ConditionNode {
        let function = name.lowercased()
        let arguments = try functionArguments(.condition)
        switch function {
        case "attribute_exists", "attribute_not_exists":
            try checkCount(name, arguments, 1)
            let path = try requirePath(name, arguments[0])
            return function == "attribute_exists" ? .attributeExists(path) : .attributeNotExists(path)
        case "attribute_type":
            try checkCount(name, arguments, 2)
            let path = try requirePath(name, arguments[0])
            if case .value(let type) = arguments[1] {
                guard case .string(let code) = type else { throw operandTypeError(name, type) }
                guard AttributeValue.typeNames.contains(code) else {
                    throw invalid("Invalid attribute type name found; type: \(code), valid types: { B,NULL,SS,BOOL,L,BS,N,NS,S,M }")
                }
            }
            return .attributeType(path, arguments[1])
        case "begins_with":
            try checkCount(name, arguments, 2)
            if case .value(let prefix) = arguments[1] {
                switch prefix {
                case .string, .binary: break
                default: throw operandTypeError(name, prefix)
                }
            }
            return .beginsWith(arguments[0], arguments[1])
        default:  // contains
            try checkCount(name, arguments, 2)
            return .contains(arguments[0], arguments[1])
        }
    }

    /// `BETWEEN :low AND :high` with two values: DynamoDB wants one type and `low <= high`.
    private func checkBounds(_ low: ExpressionOperand, _ high: ExpressionOperand) throws(DynamoDBError) {
        guard case .value(let lowValue) = low, case .value(let highValue) = high else { return }
        guard lowValue.typeName == highValue.typeName else {
            throw invalid(
                "The BETWEEN operator requires same data type for lower and upper bounds; lower bound operand: AttributeValue: {\(lowValue.typeName):\(lowValue.plainValue.jsonText)}, upper bound operand: AttributeValue: {\(highValue.typeName):\(highValue.plainValue.jsonText)}")
        }
        if let order = ValueComparison.order(lowValue, highValue), order > 0 {
            throw invalid(
                "The BETWEEN operator requires upper bound to be greater than or equal to lower bound; lower bound operand: AttributeValue: {\(lowValue.typeName):\(lowValue.plainValue.jsonText)}, upper bound operand: AttributeValue: {\(highValue.typeName):\(highValue.plainValue.jsonText)}")
        }
    }
}
