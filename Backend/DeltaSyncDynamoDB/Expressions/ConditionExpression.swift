import DeltaSyncCore

/// A condition or filter expression, parsed once and evaluated against items.
///
/// ```swift
/// let condition = try ConditionExpression(
///     "attribute_exists(#id) AND (#n > :min OR begins_with(title, :p))",
///     attributes: ExpressionAttributes(
///         names: ["#id": "id", "#n": "rating"],
///         values: [":min": .number(DynamoDBNumber(3)), ":p": .string("Intro")]))
/// condition.evaluate(["id": "1", "rating": 4])  // true
/// ```
public struct ConditionExpression: Sendable, Hashable {
    /// `.condition` or `.filter`: how errors name the expression.
    public let kind: ExpressionKind
    /// The parsed condition.
    public let root: ConditionNode
    /// The `#names` and `:values` it uses.
    public let placeholders: ExpressionPlaceholders

    /// Parses `text`.
    ///
    /// - Throws: ``DynamoDBError`` for a syntax error, an undefined `#name` or `:value`, a
    ///   function with the wrong operands, or more than 100 `IN` operands.
    public init(_ text: String, kind: ExpressionKind = .condition, attributes: ExpressionAttributes = ExpressionAttributes()) throws(DynamoDBError) {
        var parser = try ExpressionParser(text, kind: kind, attributes: attributes)
        root = try parser.wholeCondition()
        placeholders = parser.placeholders
        self.kind = kind
    }

    /// Parses an AppSync `condition` or `filter` object: `expression`, `expressionNames`,
    /// `expressionValues`.
    public init(request object: JSONValue, kind: ExpressionKind = .condition) throws(DynamoDBError) {
        let (text, attributes) = try ExpressionRequest.read(object, kind: kind)
        try self.init(text, kind: kind, attributes: attributes)
    }

    /// Whether `item` satisfies the condition, by DynamoDB's rules: a comparison with a
    /// missing attribute, or between different types, is false (`<>` is true); numbers compare
    /// by value, strings by their UTF-8 bytes. For a write's condition on an item that does not
    /// exist, pass `[:]`.
    public func evaluate(_ item: Item) -> Bool {
        root.holds(on: item)
    }
}
