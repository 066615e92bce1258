/// `a || b`, `a && b` (and `or`, `and`): the right side only when the left does not decide.
final class VTLLogicalExpression: VTLCompiledExpression {
    let isAnd: Bool
    let left: VTLCompiledExpression
    let right: VTLCompiledExpression

    init(isAnd: Bool, _ left: VTLCompiledExpression, _ right: VTLCompiledExpression) {
        self.isAnd = isAnd
        self.left = left
        self.right = right
    }

    override func evaluate(_ e: inout VTLEvaluation) throws -> VTLValue {
        let decided = try left.value(in: &e).isTrue
        if decided != isAnd { return .bool(decided) }
        return .bool(try right.value(in: &e).isTrue)
    }
}

/// `==`, `!=` (`eq`, `ne`): numbers by value, values of one kind by `equals`, values of
/// different kinds by their text, as Velocity compares.
final class VTLEqualityExpression: VTLCompiledExpression {
    let negated: Bool
    let left: VTLCompiledExpression
    let right: VTLCompiledExpression

    init(negated: Bool, _ left: VTLCompiledExpression, _ right: VTLCompiledExpression) {
        self.negated = negated
        self.left = left
        self.right = right
    }

    override func evaluate(_ e: inout VTLEvaluation) throws -> VTLValue {
        let left = try self.left.value(in: &e)
        let right = try self.right.value(in: &e)
        return .bool(Self.equals(left, right) != negated)
    }

    static func equals(_ left: VTLValue, _ right: VTLValue) -> Bool {
        if let (a, b) = VTLValue.numbers(left, right) { return a == b }
        switch (left, right) {
        case (.null, .null): return true
        case (.null, _), (_, .null): return false
        case (.bool, .bool), (.string, .string), (.list, .list), (.map, .map): return left == right
        default: return left.rendered == right.rendered
        }
    }
}

/// `<`, `<=`, `>`, `>=` (`lt`, `le`, `gt`, `ge`) on numbers.
final class VTLComparisonExpression: VTLCompiledExpression {
    let op: VTLOperator
    let left: VTLCompiledExpression
    let right: VTLCompiledExpression
    let position: VTLPosition

    init(_ op: VTLOperator, _ left: VTLCompiledExpression, _ right: VTLCompiledExpression, at position: VTLPosition) {
        self.op = op
        self.left = left
        self.right = right
        self.position = position
    }

    override func evaluate(_ e: inout VTLEvaluation) throws -> VTLValue {
        let left = try self.left.value(in: &e)
        let right = try self.right.value(in: &e)
        guard let (a, b) = VTLValue.numbers(left, right) else {
            throw e.failure("cannot compare a \(left.typeName) with a \(right.typeName)", at: position)
        }
        switch op {
        case .less: return .bool(a < b)
        case .lessOrEqual: return .bool(a <= b)
        case .greater: return .bool(a > b)
        default: return .bool(a >= b)
        }
    }
}

/// `+ - * / %`. Integer with integer stays integer (`/` truncates, as Java); a decimal makes
/// decimal; a division by zero is null; `+` with a string joins the texts.
final class VTLArithmeticExpression: VTLCompiledExpression {
    let op: VTLOperator
    let left: VTLCompiledExpression
    let right: VTLCompiledExpression
    let position: VTLPosition

    init(_ op: VTLOperator, _ left: VTLCompiledExpression, _ right: VTLCompiledExpression, at position: VTLPosition) {
        self.op = op
        self.left = left
        self.right = right
        self.position = position
    }

    override func evaluate(_ e: inout VTLEvaluation) throws -> VTLValue {
        let left = try self.left.value(in: &e)
        let right = try self.right.value(in: &e)
        if op == .plus {
            if case .string = left { return .string(left.rendered + right.rendered) }
            if case .string = right { return .string(left.rendered + right.rendered) }
        }
        if case .int(let a) = left, case .int(let b) = right {
            switch op {
            case .plus: return .int(a &+ b)
            case .minus: return .int(a &- b)
            case .times: return .int(a &* b)
            // Java wraps `Long.MIN_VALUE / -1` rather than trapping.
            case .divide: return b == 0 ? .null : .int(a.dividedReportingOverflow(by: b).partialValue)
            default: return b == 0 ? .null : .int(a.remainderReportingOverflow(dividingBy: b).partialValue)
            }
        }
        guard let (a, b) = VTLValue.numbers(left, right) else {
            throw e.failure("cannot do arithmetic with a \(left.typeName) and a \(right.typeName)", at: position)
        }
        switch op {
        case .plus: return .double(a + b)
        case .minus: return .double(a - b)
        case .times: return .double(a * b)
        case .divide: return b == 0 ? .null : .double(a / b)
        default: return b == 0 ? .null : .double(a.truncatingRemainder(dividingBy: b))
        }
    }
}

extension VTLValue {
    /// Both values as decimals, when both are numbers.
    static func numbers(_ left: VTLValue, _ right: VTLValue) -> (Double, Double)? {
        func number(_ value: VTLValue) -> Double? {
            switch value {
            case .int(let value): return Double(value)
            case .double(let value): return value
            default: return nil
            }
        }
        guard let a = number(left), let b = number(right) else { return nil }
        return (a, b)
    }
}
