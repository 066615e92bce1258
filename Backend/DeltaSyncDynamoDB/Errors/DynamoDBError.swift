import DeltaSyncCore

/// A request DynamoDB refuses: a malformed typed value, an expression it cannot read, an
/// update that does not fit the item. The message is DynamoDB's own wording, so a template
/// that fails here fails with the text its author would see on AWS.
///
/// ```swift
/// do {
///     _ = try ConditionExpression("a = :missing")
/// } catch {
///     error.message  // Invalid ConditionExpression: An expression attribute value used in
///                    // expression is not defined; attribute value: :missing
///     error.appSyncError(requestID: "r1").errorType  // DynamoDB:DynamoDbException
/// }
/// ```
public struct DynamoDBError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The `errorType` AppSync reports: DynamoDB's exception class behind the service prefix.
    /// A `ValidationException` has no class of its own in the SDK AppSync uses, so it surfaces
    /// as `DynamoDB:DynamoDbException`.
    public var type: AppSyncErrorType
    /// DynamoDB's error code (`ValidationException`), as a client of DynamoDB itself sees it.
    public var code: String
    /// DynamoDB's message, without the SDK's `(Service: ...)` suffix.
    public var message: String

    /// An error of `type` (by default AppSync's spelling of a `ValidationException`).
    public init(type: AppSyncErrorType = .dynamoDBException, code: String = "ValidationException", message: String) {
        self.type = type
        self.code = code
        self.message = message
    }

    /// A `ValidationException` with `message`.
    public static func validation(_ message: String) -> DynamoDBError {
        DynamoDBError(message: message)
    }

    /// The error as AppSync hands it to the response template and the client: the message
    /// carries the SDK's suffix with the status code and a request ID.
    public func appSyncError(requestID: String = "null") -> AppSyncError {
        AppSyncError(type, "\(message) (Service: DynamoDb, Status Code: 400, Request ID: \(requestID))")
    }

    /// `type: message`.
    public var description: String { "\(type.rawValue): \(message)" }
}

extension AppSyncErrorType {
    /// A DynamoDB request error as AppSync reports it since its move to the AWS SDK for Java 2
    /// (earlier it read `DynamoDB:AmazonDynamoDBException`).
    public static let dynamoDBException: Self = "DynamoDB:DynamoDbException"
}
