/// A value in an expression: an attribute at a path, a value from `expressionValues`, or a
/// function of them. `size` appears in conditions; `if_not_exists`, `list_append`, `+` and `-`
/// in an update's `SET`.
public indirect enum ExpressionOperand: Sendable, Hashable {
    /// The attribute at a path; missing when the item has none.
    case path(DocumentPath)
    /// A value from `expressionValues`.
    case value(AttributeValue)
    /// `size(path)`: a string's UTF-8 length, a list's or map's count.
    case size(DocumentPath)
    /// `if_not_exists(path, fallback)`
    case ifNotExists(DocumentPath, ExpressionOperand)
    /// `list_append(first, second)`
    case listAppend(ExpressionOperand, ExpressionOperand)
    /// `left + right`
    case plus(ExpressionOperand, ExpressionOperand)
    /// `left - right`
    case minus(ExpressionOperand, ExpressionOperand)
}
