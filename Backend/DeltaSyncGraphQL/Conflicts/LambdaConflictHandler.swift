import DeltaSyncCore

/// A custom (AppSync "Lambda") conflict handler: given the conflicting write, decide.
///
/// ```swift
/// configuration.lambdaConflictHandler = { request in
///     request.existingItem["locked"] == true ? .reject : .resolve(request.newItem.objectValue ?? [:])
/// }
/// ```
///
/// Throwing, or an unusable answer, fails the mutation with `ConflictError` and writes nothing.
public typealias LambdaConflictHandler = @Sendable (LambdaConflictRequest) async throws -> LambdaConflictResponse

/// The payload AppSync sends a Lambda conflict handler.
public struct LambdaConflictRequest: Sendable, Equatable {
    /// The item as it would be if the mutation applied (for a delete: the stored item).
    public var newItem: JSONValue
    /// The item as stored.
    public var existingItem: JSONValue
    /// The mutation's arguments (`input`, `condition`).
    public var arguments: JSONValue
    /// `{tableName, awsRegion, parentType, field}`.
    public var resolver: JSONValue
    /// Who made the call; `null` with API-key auth.
    public var identity: JSONValue

    public init(newItem: JSONValue, existingItem: JSONValue, arguments: JSONValue, resolver: JSONValue, identity: JSONValue = .null) {
        self.newItem = newItem
        self.existingItem = existingItem
        self.arguments = arguments
        self.resolver = resolver
        self.identity = identity
    }

    /// The JSON document a Lambda function receives.
    public var json: JSONValue {
        [
            "newItem": newItem, "existingItem": existingItem, "arguments": arguments,
            "resolver": resolver, "identity": identity,
        ]
    }
}

/// What a conflict handler decided.
public enum LambdaConflictResponse: Sendable, Equatable {
    /// Store this item (its key and metadata fields are ignored; the server sets them).
    case resolve(Item)
    /// Refuse the mutation: the client gets `ConflictUnhandled` with the stored item.
    case reject
    /// Delete the item anyway (delete mutations only).
    case remove

    /// Reads a Lambda function's answer: `{"action": "RESOLVE", "item": {...}}`,
    /// `{"action": "REJECT"}` or `{"action": "REMOVE"}`.
    ///
    /// - Throws: ``AppSyncError`` `ConflictError` saying what is wrong with the answer.
    public init(json: JSONValue) throws(AppSyncError) {
        switch json["action"].stringValue {
        case "RESOLVE":
            guard let item = json["item"].objectValue else {
                throw AppSyncError(.conflictError, "The conflict handler answered RESOLVE without an 'item' object.")
            }
            self = .resolve(item)
        case "REJECT": self = .reject
        case "REMOVE": self = .remove
        case let other:
            throw AppSyncError(
                .conflictError,
                "The conflict handler answered \(other.map { "'\($0)'" } ?? "no action"); expected an 'action' of RESOLVE, REJECT or REMOVE."
            )
        }
    }
}
