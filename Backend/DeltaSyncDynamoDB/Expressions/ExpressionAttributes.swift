import DeltaSyncCore

/// The `expressionNames` (`#n` → attribute name) and `expressionValues` (`:v` → typed value)
/// that expressions refer to.
///
/// AppSync gives every expression object of a request (`condition`, `update`, `query`,
/// `filter`, `projection`) its own maps and sends them to DynamoDB as one; DynamoDB then
/// refuses any name or value that no expression of the request uses. Merge the objects' maps
/// with ``merging(_:)`` and check them with ``checkAllUsed(by:)``.
///
/// ```swift
/// let condition = try ExpressionAttributes(request: request["condition"])
/// let update = try ExpressionAttributes(request: request["update"])
/// let all = condition.merging(update)
/// let parsedCondition = try ConditionExpression(conditionText, attributes: all)
/// let parsedUpdate = try UpdateExpression(updateText, attributes: all)
/// try all.checkAllUsed(by: [parsedCondition.placeholders, parsedUpdate.placeholders])
/// ```
public struct ExpressionAttributes: Sendable, Hashable {
    /// `#placeholder` → attribute name.
    public var names: [String: String]
    /// `:placeholder` → value.
    public var values: [String: AttributeValue]

    /// Names and values already read (keys with their `#` and `:`).
    public init(names: [String: String] = [:], values: [String: AttributeValue] = [:]) {
        self.names = names
        self.values = values
    }

    /// The maps of an AppSync expression object: its `expressionNames` and `expressionValues`
    /// (either may be absent or null).
    ///
    /// - Throws: ``DynamoDBError`` for a key without its `#`/`:`, a name that is not a
    ///   non-empty string, or a value that is not one typed value, in DynamoDB's wording.
    public init(request object: JSONValue) throws(DynamoDBError) {
        try self.init(names: object["expressionNames"], values: object["expressionValues"])
    }

    /// ``init(request:)`` from the two maps themselves.
    public init(names: JSONValue, values: JSONValue) throws(DynamoDBError) {
        self.init()
        for (key, name) in try Self.members(names, field: "expressionNames") {
            guard key.count > 1, key.hasPrefix("#") else {
                throw .validation("ExpressionAttributeNames contains invalid key: Syntax error; key: \"\(key)\"")
            }
            guard case .string(let text) = name, !text.isEmpty else {
                throw .validation("ExpressionAttributeNames contains invalid value: \(name.jsonText) is not an attribute name, for key \(key)")
            }
            self.names[key] = text
        }
        for (key, typed) in try Self.members(values, field: "expressionValues") {
            guard key.count > 1, key.hasPrefix(":") else {
                throw .validation("ExpressionAttributeValues contains invalid key: Syntax error; key: \"\(key)\"")
            }
            do throws(DynamoDBError) {
                self.values[key] = try AttributeValue(typed: typed)
            } catch {
                throw .validation("ExpressionAttributeValues contains invalid value: \(error.message) for key \(key)")
            }
        }
    }

    private static func members(_ map: JSONValue, field: String) throws(DynamoDBError) -> [String: JSONValue] {
        switch map {
        case .null: return [:]
        case .object(let members): return members
        default: throw .validation("'\(field)' must be a map, not \(map.jsonText)")
        }
    }

    /// Both sets of names and values, as DynamoDB receives them in one request; `other`'s
    /// entry wins where both define a placeholder.
    public func merging(_ other: ExpressionAttributes) -> ExpressionAttributes {
        ExpressionAttributes(
            names: names.merging(other.names) { _, theirs in theirs },
            values: values.merging(other.values) { _, theirs in theirs })
    }

    /// Refuses names and values that none of the request's expressions use, as DynamoDB does.
    ///
    /// - Parameter uses: the ``ExpressionPlaceholders`` of every expression of the request.
    /// - Throws: ``DynamoDBError``: `Value provided in ExpressionAttributeNames unused in
    ///   expressions: keys: {#a}` (names are checked before values).
    public func checkAllUsed(by uses: [ExpressionPlaceholders]) throws(DynamoDBError) {
        let usedNames = uses.reduce(into: Set<String>()) { $0.formUnion($1.names) }
        let usedValues = uses.reduce(into: Set<String>()) { $0.formUnion($1.values) }
        let unusedNames = Set(names.keys).subtracting(usedNames).sorted()
        if !unusedNames.isEmpty {
            throw .validation("Value provided in ExpressionAttributeNames unused in expressions: keys: {\(unusedNames.joined(separator: ", "))}")
        }
        let unusedValues = Set(values.keys).subtracting(usedValues).sorted()
        if !unusedValues.isEmpty {
            throw .validation("Value provided in ExpressionAttributeValues unused in expressions: keys: {\(unusedValues.joined(separator: ", "))}")
        }
    }
}

/// The `#names` and `:values` one expression refers to, for
/// ``ExpressionAttributes/checkAllUsed(by:)``.
public struct ExpressionPlaceholders: Sendable, Hashable {
    /// `#n` placeholders, with their `#`.
    public var names: Set<String> = []
    /// `:v` placeholders, with their `:`.
    public var values: Set<String> = []

    /// The placeholders, with their `#` and `:`.
    public init(names: Set<String> = [], values: Set<String> = []) {
        self.names = names
        self.values = values
    }
}
