/// One action of an update expression.
public enum UpdateAction: Sendable, Hashable {
    /// `SET path = value`.
    case set(DocumentPath, ExpressionOperand)
    /// `REMOVE path`.
    case remove(DocumentPath)
    /// `ADD path :value`: adds a number, or the elements of a set; creates the attribute when absent.
    case add(DocumentPath, AttributeValue)
    /// `DELETE path :set`: removes the elements of a set.
    case delete(DocumentPath, AttributeValue)

    /// The path the action writes.
    public var path: DocumentPath {
        switch self {
        case .set(let path, _), .remove(let path), .add(let path, _), .delete(let path, _): return path
        }
    }
}
