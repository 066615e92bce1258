/// A value in an expression: an attribute at a path, a value from `expressionValues`, or a
/// function of them. `size` appears in conditions; `if_not_exists`, `list_append`, `+` and `-`
/// in an update's `SET`.
public indirect enum ExpressionOperand: Sendable, Hashable {
    case path(DocumentPath)
    case value(AttributeValue)
    case size(DocumentPath)
    case ifNotExists(DocumentPath, ExpressionOperand)
    case listAppend(ExpressionOperand, ExpressionOperand)
    case plus(ExpressionOperand, ExpressionOperand)
    case minus(ExpressionOperand, ExpressionOperand)
}
