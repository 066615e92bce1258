import DeltaSyncCore
import Logging

/// What a client learns of an error DeltaSync did not expect.
extension AppSyncError {
    /// The message of an ``AppSyncErrorType/internalFailure`` that replaces an unexpected error.
    static let internalFailureMessage =
        "An internal error occurred while resolving this field; the server log has the details."

    /// `error` as the client may see it: an ``AppSyncError`` unchanged, anything else (a GRDB
    /// `DatabaseError`, a Swift error from a dependency) as ``AppSyncErrorType/internalFailure``
    /// with ``internalFailureMessage``, after logging it in full at error level.
    ///
    /// Every layer that means to tell the client something throws an `AppSyncError`; anything
    /// else describes DeltaSync's insides (SQL text, file paths, SQLite messages), which AppSync
    /// never shows a client either. The log keeps them, with `location` to find the request.
    ///
    /// ```swift
    /// let shown = AppSyncError.redacting(error, at: "createPost", logger: logger)
    /// ```
    ///
    /// - Parameters:
    ///   - error: what a resolver, the store or the GraphQL library threw.
    ///   - location: where it happened, for the log: a field path such as `listPosts.items`,
    ///     or a realtime subscription's id.
    ///   - logger: where the full error goes.
    package static func redacting(_ error: any Error, at location: String, logger: Logger) -> AppSyncError {
        if let appSync = error as? AppSyncError { return appSync }
        logger.error(
            "unexpected error answered as InternalFailure",
            metadata: [
                "location": "\(location)",
                "errorType": "\(type(of: error))",
                "error": "\(error)",
            ])
        return AppSyncError(.internalFailure, internalFailureMessage)
    }
}
