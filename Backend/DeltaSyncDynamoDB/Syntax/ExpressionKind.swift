/// Which expression of a request a text is: DynamoDB names it in its errors
/// (`Invalid ConditionExpression: ...`).
public enum ExpressionKind: String, Sendable, Hashable {
    /// A write's `condition`.
    case condition = "ConditionExpression"
    /// A `Query`'s or `Scan`'s `filter`.
    case filter = "FilterExpression"
    /// A `Query`'s `query`.
    case keyCondition = "KeyConditionExpression"
    /// An `UpdateItem`'s `update`.
    case update = "UpdateExpression"
    /// A read's `projection`.
    case projection = "ProjectionExpression"
}
