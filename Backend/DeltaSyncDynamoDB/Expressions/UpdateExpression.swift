import DeltaSyncCore

/// An update expression: `SET`, `REMOVE`, `ADD` and `DELETE` clauses, parsed once and applied
/// to items with ``apply(to:)``.
///
/// ```swift
/// let update = try UpdateExpression(
///     "SET #c = if_not_exists(#c, :zero) + :one, tags = list_append(tags, :new) REMOVE draft",
///     attributes: ExpressionAttributes(
///         names: ["#c": "count"],
///         values: [":zero": .number(DynamoDBNumber(0)), ":one": .number(DynamoDBNumber(1)),
///                  ":new": .list([.string("b")])]))
/// try update.apply(to: ["tags": ["a"], "draft": true])  // ["count": 1, "tags": ["a", "b"]]
/// ```
public struct UpdateExpression: Sendable, Hashable {
    /// The actions in the order written.
    public let actions: [UpdateAction]
    /// The `#names` and `:values` it uses.
    public let placeholders: ExpressionPlaceholders

    /// Parses `text`.
    ///
    /// - Throws: ``DynamoDBError`` for a syntax error, a clause written twice, two actions on
    ///   overlapping paths, an undefined `#name` or `:value`, or a value of the wrong type for
    ///   `+`, `-`, `list_append`, `ADD` or `DELETE`.
    public init(_ text: String, attributes: ExpressionAttributes = ExpressionAttributes()) throws(DynamoDBError) {
        var parser = try ExpressionParser(text, kind: .update, attributes: attributes)
        actions = try parser.wholeUpdate()
        placeholders = parser.placeholders
    }

    /// Parses an AppSync `update` object: `expression`, `expressionNames`, `expressionValues`.
    public init(request object: JSONValue) throws(DynamoDBError) {
        let (text, attributes) = try ExpressionRequest.read(object, kind: .update)
        try self.init(text, attributes: attributes)
    }

    /// Refuses an update that writes a key attribute, as DynamoDB does.
    ///
    /// - Parameter keys: the table's (or model's) key attribute names.
    public func checkKeyAttributes(_ keys: some Sequence<String>) throws(DynamoDBError) {
        let written = Set(actions.map(\.path.attribute))
        for key in keys where written.contains(key) {
            throw .validation("One or more parameter values were invalid: Cannot update attribute \(key). This attribute is part of the key")
        }
    }
}
