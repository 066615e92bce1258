import DeltaSyncCore
import DeltaSyncDynamoDB

/// Names and typed values as a template writes them.
func attributes(_ names: [String: String] = [:], _ values: [String: JSONValue] = [:]) throws -> ExpressionAttributes {
    try ExpressionAttributes(names: .object(names.mapValues(JSONValue.string)), values: .object(values))
}

/// The message of the ``DynamoDBError`` `body` throws, or `nil` when it throws none.
func message(_ body: () throws -> Void) -> String? {
    do {
        try body()
        return nil
    } catch let error as DynamoDBError {
        return error.message
    } catch {
        return "not a DynamoDBError: \(error)"
    }
}

/// Whether `text` holds on `item`, with typed `values` and `#names`.
func holds(_ text: String, _ item: Item, names: [String: String] = [:], values: [String: JSONValue] = [:]) throws -> Bool {
    try ConditionExpression(text, attributes: attributes(names, values)).evaluate(item)
}

/// `item` after `text`.
func updated(_ item: Item, _ text: String, names: [String: String] = [:], values: [String: JSONValue] = [:]) throws -> Item {
    try UpdateExpression(text, attributes: attributes(names, values)).apply(to: item)
}
