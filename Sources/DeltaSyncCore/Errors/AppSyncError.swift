/// An error as AppSync reports it in `errors[]`: a machine-readable `errorType`, a message,
/// and optionally the current server item in `data`.
///
/// Every layer throws this (or maps its own errors to it) so the wire shape is decided in one
/// place: clients such as Amplify DataStore branch on `errorType` and read the server item from
/// `data` when a mutation conflicts.
///
/// ```swift
/// throw AppSyncError(.conditionalCheckFailed,
///                    "The conditional request failed (Service: DynamoDb, Status Code: 400)")
/// ```
public struct AppSyncError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The value of `errorType` on the wire.
    public var errorType: AppSyncErrorType
    public var message: String
    /// The server item (already shaped as the client expects), sent as `errors[].data`.
    public var data: JSONValue
    public var errorInfo: JSONValue

    public init(_ errorType: AppSyncErrorType, _ message: String, data: JSONValue = .null, errorInfo: JSONValue = .null) {
        self.errorType = errorType
        self.message = message
        self.data = data
        self.errorInfo = errorInfo
    }

    public var description: String { "\(errorType.rawValue): \(message)" }
}

/// The `errorType` strings AppSync and its DynamoDB resolvers emit; clients match them exactly.
public struct AppSyncErrorType: RawRepresentable, Sendable, Hashable, ExpressibleByStringLiteral {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    /// A `condition` (or create's key-absence check) did not hold.
    public static let conditionalCheckFailed: Self = "ConditionalCheckFailedException"
    /// A failed condition of an API without conflict detection: the unversioned resolvers pass
    /// DynamoDB's error through, prefixed with its service.
    public static let dynamoDBConditionalCheckFailed: Self = "DynamoDB:ConditionalCheckFailedException"
    /// A version mismatch the conflict handler rejected.
    public static let conflictUnhandled: Self = "ConflictUnhandled"
    /// The conflict handler itself failed (unreachable or malformed answer).
    public static let conflictError: Self = "ConflictError"
    /// A retry limit was hit while merging.
    public static let maxConflicts: Self = "MaxConflicts"
    /// The client wrote server-owned metadata (`_lastChangedAt`, `_deleted`, `_ttl`).
    public static let badRequest: Self = "BadRequest"
    /// A value did not fit its declared type (AWS scalars, enums, required fields).
    public static let validation: Self = "ValidationException"
    /// An argument is well-typed but unusable (for example a forged `nextToken`).
    public static let invalidArgument: Self = "InvalidArgumentException"
    /// A DynamoDB-style request error: a value that cannot be stored or compared.
    public static let dynamoDBValidation: Self = "DynamoDB:ValidationException"
    /// A request without valid credentials (HTTP 401).
    public static let unauthorized: Self = "UnauthorizedException"
    /// A field the caller may not access (HTTP 200, the field is null). Clients tell it apart
    /// from ``unauthorized``: amplify-js skips a model only on this spelling.
    public static let notAuthorized: Self = "Unauthorized"
    public static let malformedHttpRequest: Self = "MalformedHttpRequestException"
    public static let unsupportedOperation: Self = "UnsupportedOperation"
    public static let internalFailure: Self = "InternalFailure"
    /// The store cannot be reached (a shared database down or restarting). The server answers
    /// the whole request with HTTP 503 and `Retry-After`, which DataStore clients back off and
    /// retry, instead of an error in a 200 that they would drop the mutation for.
    public static let serviceUnavailable: Self = "ServiceUnavailableException"

    // SigV4 (`AWS_IAM`) refusals: HTTP 403, as AWS's request signing layer answers before AppSync.

    /// An `AWS4-HMAC-SHA256` header missing a part, or not signing `host` and `x-amz-date`.
    public static let incompleteSignature: Self = "IncompleteSignatureException"
    /// A signature that does not match the request received, its time or its credential scope.
    public static let invalidSignature: Self = "InvalidSignatureException"
    /// An access key the server does not know.
    public static let unrecognizedClient: Self = "UnrecognizedClientException"

    // Realtime WebSocket errors.

    /// A connection asked for more subscriptions than its quota.
    public static let maxSubscriptionsReached: Self = "MaxSubscriptionsReachedError"
    /// A `start` reused the id of a subscription still active on the connection.
    public static let duplicatedOperation: Self = "DuplicatedOperationError"
    /// A subscription filter over AppSync's limits, or a malformed one.
    public static let filterValidation: Self = "FilterValidationError"
    /// A frame that is not a protocol message.
    public static let malformedMessage: Self = "MalformedMessage"
    /// A subscriber fell too far behind and was disconnected.
    public static let limitExceeded: Self = "LimitExceededError"
    /// A request that ran past its time limit (AppSync: 30 seconds), message "Execution timed out."
    public static let executionTimeout: Self = "ExecutionTimeout"
}

extension AppSyncError {
    /// The message AppSync returns when a DynamoDB condition fails.
    public static func conditionalCheckFailed(data: JSONValue = .null) -> AppSyncError {
        AppSyncError(
            .conditionalCheckFailed,
            "The conditional request failed (Service: DynamoDb, Status Code: 400, Request ID: null)",
            data: data
        )
    }

    /// What AppSync answers when a condition of an API without conflict detection fails: the
    /// create of a taken key, the update or delete of a missing item, or a false `condition`.
    /// The message carries the SDK's detail with a request ID, and `errors[].data` is null.
    public static func dynamoDBConditionalCheckFailed(requestID: String) -> AppSyncError {
        AppSyncError(
            .dynamoDBConditionalCheckFailed,
            "The conditional request failed (Service: DynamoDb, Status Code: 400, Request ID: \(requestID))")
    }
}
