import DeltaSyncCore

/// An AppSync expression object (`condition`, `update`, `query`, `filter`, `projection`):
/// `expression` with its `expressionNames` and `expressionValues`.
enum ExpressionRequest {
    static func read(_ object: JSONValue, kind: ExpressionKind) throws(DynamoDBError) -> (String, ExpressionAttributes) {
        guard case .string(let text) = object["expression"] else {
            throw .validation("A \(kind.rawValue) object needs an 'expression' string, not \(object["expression"].jsonText)")
        }
        return (text, try ExpressionAttributes(request: object))
    }
}
