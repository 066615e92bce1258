import DeltaSyncCore

/// A `Query`'s key condition expression: `pk = :v`, optionally `AND` one condition on the sort
/// key (`= < <= > >=`, `BETWEEN`, `begins_with`). Parsing checks the shape DynamoDB allows;
/// ``keyCondition(partitionKey:sortKey:)`` checks it against the queried index's keys.
///
/// ```swift
/// let expression = try KeyConditionExpression(request: [
///     "expression": "#pk = :pk AND #sk BETWEEN :from AND :to",
///     "expressionNames": ["#pk": "ownerId", "#sk": "createdAt"],
///     "expressionValues": [":pk": ["S": "u1"], ":from": ["S": "2024"], ":to": ["S": "2025"]],
/// ])
/// let key = try expression.keyCondition(partitionKey: "ownerId", sortKey: "createdAt")
/// ```
public struct KeyConditionExpression: Sendable, Hashable {
    /// The one or two conditions, in the order written, each on a top-level attribute.
    public let terms: [SortKeyCondition]
    /// The `#names` and `:values` it uses.
    public let placeholders: ExpressionPlaceholders

    /// Parses `text`.
    ///
    /// - Throws: ``DynamoDBError`` for a syntax error, an undefined `#name` or `:value`, an
    ///   operator keys do not allow (`OR`, `NOT`, `IN`, `<>`, functions but `begins_with`),
    ///   more than two conditions, two on one attribute, or one on a nested attribute.
    public init(_ text: String, attributes: ExpressionAttributes = ExpressionAttributes()) throws(DynamoDBError) {
        var parser = try ExpressionParser(text, kind: .keyCondition, attributes: attributes)
        let root = try parser.wholeCondition()
        var terms: [SortKeyCondition] = []
        try Self.collect(root, into: &terms)
        guard terms.count <= 2 else { throw .validation("Conditions can be of length 1 or 2 only") }
        if terms.count == 2, terms[0].attribute == terms[1].attribute {
            throw .validation("KeyConditionExpressions must only contain one condition per key")
        }
        self.terms = terms
        placeholders = parser.placeholders
    }

    /// Parses an AppSync `query` object: `expression`, `expressionNames`, `expressionValues`.
    public init(request object: JSONValue) throws(DynamoDBError) {
        let (text, attributes) = try ExpressionRequest.read(object, kind: .keyCondition)
        try self.init(text, attributes: attributes)
    }

    /// The condition on an index with these keys.
    ///
    /// - Throws: ``DynamoDBError``: `Query condition missed key schema element: pk` without an
    ///   equality on the partition key, `Query key condition not supported` for a condition on
    ///   an attribute that is not a key of the index.
    public func keyCondition(partitionKey: String, sortKey: String?) throws(DynamoDBError) -> KeyCondition {
        guard let partition = terms.first(where: { $0.attribute == partitionKey }) else {
            throw .validation("Query condition missed key schema element: \(partitionKey)")
        }
        guard case .equal(let value) = partition.predicate else {
            throw .validation("Query key condition not supported")
        }
        let others = terms.filter { $0.attribute != partitionKey }
        guard others.allSatisfy({ $0.attribute == sortKey }) else {
            throw .validation("Query key condition not supported")
        }
        return KeyCondition(partitionKey: partitionKey, partitionValue: value, sortKey: others.first)
    }

    private static func collect(_ node: ConditionNode, into terms: inout [SortKeyCondition]) throws(DynamoDBError) {
        func refuse(_ name: String) -> DynamoDBError { .validation("Invalid operator used in KeyConditionExpression: \(name)") }
        switch node {
        case .and(let left, let right):
            try collect(left, into: &terms)
            try collect(right, into: &terms)
        case .or: throw refuse("OR")
        case .not: throw refuse("NOT")
        case .in: throw refuse("IN")
        case .attributeExists: throw refuse("attribute_exists")
        case .attributeNotExists: throw refuse("attribute_not_exists")
        case .attributeType: throw refuse("attribute_type")
        case .contains: throw refuse("contains")
        case .compare(_, .notEqual, _): throw refuse("<>")
        case .compare(let left, let comparator, let right):
            if case .path = right, case .value = left {
                terms.append(try term(right, Self.mirrored(comparator, left)))
            } else {
                terms.append(try term(left, Self.predicate(comparator, right)))
            }
        case .between(let subject, let low, let high):
            terms.append(try term(subject, .between(try value(low), try value(high))))
        case .beginsWith(let subject, let prefix):
            terms.append(try term(subject, .beginsWith(try value(prefix))))
        }
    }

    private static func term(_ subject: ExpressionOperand, _ predicate: KeyPredicate) throws(DynamoDBError) -> SortKeyCondition {
        switch subject {
        case .path(let path) where path.elements.count == 1:
            return SortKeyCondition(attribute: path.attribute, predicate: predicate)
        case .path:
            throw .validation("KeyConditionExpressions cannot have conditions on nested attributes")
        case .size:
            throw .validation("Invalid operator used in KeyConditionExpression: size")
        default:
            throw .validation("Invalid KeyConditionExpression: a key condition compares a key attribute with an expression value")
        }
    }

    private static func value(_ operand: ExpressionOperand) throws(DynamoDBError) -> AttributeValue {
        switch operand {
        case .value(let value): return value
        case .size: throw .validation("Invalid operator used in KeyConditionExpression: size")
        default: throw .validation("Invalid KeyConditionExpression: a key condition compares a key attribute with an expression value")
        }
    }

    private static func predicate(_ comparator: ConditionNode.Comparator, _ operand: ExpressionOperand) throws(DynamoDBError) -> KeyPredicate {
        let value = try value(operand)
        switch comparator {
        case .equal: return .equal(value)
        case .less: return .less(value)
        case .lessOrEqual: return .lessOrEqual(value)
        case .greater: return .greater(value)
        case .greaterOrEqual: return .greaterOrEqual(value)
        case .notEqual: throw .validation("Invalid operator used in KeyConditionExpression: <>")
        }
    }

    /// `:v < sk` read as `sk > :v`.
    private static func mirrored(_ comparator: ConditionNode.Comparator, _ operand: ExpressionOperand) throws(DynamoDBError) -> KeyPredicate {
        let flipped: ConditionNode.Comparator
        switch comparator {
        case .less: flipped = .greater
        case .lessOrEqual: flipped = .greaterOrEqual
        case .greater: flipped = .less
        case .greaterOrEqual: flipped = .lessOrEqual
        default: flipped = comparator
        }
        return try predicate(flipped, operand)
    }
}
