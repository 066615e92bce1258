/// A condition, filter or key condition as parsed: comparisons, `BETWEEN`, `IN`, functions and
/// `AND`/`OR`/`NOT`.
public indirect enum ConditionNode: Sendable, Hashable {
    /// `=`, `<>`, `<`, `<=`, `>`, `>=`.
    public enum Comparator: String, Sendable, Hashable, CaseIterable {
        case equal = "="
        case notEqual = "<>"
        case less = "<"
        case lessOrEqual = "<="
        case greater = ">"
        case greaterOrEqual = ">="
    }

    /// `left <comparator> right`.
    case compare(ExpressionOperand, Comparator, ExpressionOperand)
    /// `subject BETWEEN low AND high`.
    case between(ExpressionOperand, ExpressionOperand, ExpressionOperand)
    /// `subject IN (a, b, ...)`.
    case `in`(ExpressionOperand, [ExpressionOperand])
    /// `attribute_exists(path)`: a `NULL` attribute exists.
    case attributeExists(DocumentPath)
    /// `attribute_not_exists(path)`
    case attributeNotExists(DocumentPath)
    /// `attribute_type(path, :type)`.
    case attributeType(DocumentPath, ExpressionOperand)
    /// `begins_with(subject, prefix)`.
    case beginsWith(ExpressionOperand, ExpressionOperand)
    /// `contains(subject, operand)`.
    case contains(ExpressionOperand, ExpressionOperand)
    /// `NOT condition`
    case not(ConditionNode)
    /// `left AND right`
    case and(ConditionNode, ConditionNode)
    /// `left OR right`
    case or(ConditionNode, ConditionNode)
}
