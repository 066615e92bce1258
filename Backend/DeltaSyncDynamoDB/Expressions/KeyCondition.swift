import DeltaSyncCore

/// A `Query`'s key condition resolved against an index's keys: the partition key's value and,
/// optionally, one condition on the sort key. The caller maps it to its own index read.
///
/// ```swift
/// let key = try KeyConditionExpression("pk = :p AND begins_with(sk, :s)", attributes: attributes)
///     .keyCondition(partitionKey: "pk", sortKey: "sk")
/// key.partitionValue         // .string("user#1")
/// key.sortKey?.predicate     // .beginsWith(.string("2024-"))
/// ```
public struct KeyCondition: Sendable, Hashable {
    /// The partition key attribute.
    public var partitionKey: String
    /// The value the partition key equals.
    public var partitionValue: AttributeValue
    /// The sort key condition, if the expression has one.
    public var sortKey: SortKeyCondition?

    /// A condition on `partitionKey` (and optionally the sort key).
    public init(partitionKey: String, partitionValue: AttributeValue, sortKey: SortKeyCondition? = nil) {
        self.partitionKey = partitionKey
        self.partitionValue = partitionValue
        self.sortKey = sortKey
    }

    /// Whether `item` has the partition value and meets the sort key condition, by DynamoDB's
    /// comparison rules: for filtering items in memory.
    public func matches(_ item: Item) -> Bool {
        guard let stored = item[partitionKey], ValueComparison.equal(AttributeValue(plain: stored), partitionValue) else { return false }
        guard let sortKey else { return true }
        return item[sortKey.attribute].map(sortKey.predicate.matches) ?? false
    }
}

/// One condition on a key attribute.
public struct SortKeyCondition: Sendable, Hashable {
    /// The key attribute.
    public var attribute: String
    /// What its value must be.
    public var predicate: KeyPredicate

    /// `predicate` on `attribute`.
    public init(attribute: String, predicate: KeyPredicate) {
        self.attribute = attribute
        self.predicate = predicate
    }
}

/// What a key condition asks of a key value: the operators DynamoDB allows on keys.
public enum KeyPredicate: Sendable, Hashable {
    /// `key = :v`
    case equal(AttributeValue)
    /// `key < :v`
    case less(AttributeValue)
    /// `key <= :v`
    case lessOrEqual(AttributeValue)
    /// `key > :v`
    case greater(AttributeValue)
    /// `key >= :v`
    case greaterOrEqual(AttributeValue)
    /// `key BETWEEN :low AND :high`, both bounds included.
    case between(AttributeValue, AttributeValue)
    /// `begins_with(key, :prefix)`
    case beginsWith(AttributeValue)

    /// Whether a stored (plain) key value meets the predicate.
    public func matches(_ stored: JSONValue) -> Bool {
        let value = AttributeValue(plain: stored)
        switch self {
        case .equal(let other): return ConditionNode.compare(value, .equal, other)
        case .less(let other): return ConditionNode.compare(value, .less, other)
        case .lessOrEqual(let other): return ConditionNode.compare(value, .lessOrEqual, other)
        case .greater(let other): return ConditionNode.compare(value, .greater, other)
        case .greaterOrEqual(let other): return ConditionNode.compare(value, .greaterOrEqual, other)
        case .between(let low, let high):
            return ConditionNode.compare(value, .greaterOrEqual, low) && ConditionNode.compare(value, .lessOrEqual, high)
        case .beginsWith(let prefix): return ConditionNode.beginsWith(value, prefix)
        }
    }
}
