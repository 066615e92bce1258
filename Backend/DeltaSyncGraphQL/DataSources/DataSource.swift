import DeltaSyncCore

/// Where a resolver step sends the request its template made: AppSync's data sources. A step
/// renders a request object, the data source answers it, the step's response template reads
/// the answer as `$ctx.result` (or the failure as `$ctx.error`).
///
/// ```swift
/// let none = NoneDataSource()
/// let result = try await none.invoke(["version": "2018-05-29", "payload": ["a": 1]], context: context)
/// // result == ["a": 1]
/// ```
protocol DataSource: Sendable {
    /// The name resolvers refer to it by.
    var name: String { get }

    /// Answers one request object.
    ///
    /// - Throws: ``DataSourceFailure``, which the step's response template sees as `$ctx.error`.
    func invoke(_ request: JSONValue, context: ResolverContext) async throws(DataSourceFailure) -> JSONValue
}

/// What a data source reports when a request fails: `$ctx.error` (`message`, `type`), and the
/// field's error when the template raises it again.
struct DataSourceFailure: Error, Sendable, Equatable {
    /// AppSync's spelling: `DynamoDB:ConditionalCheckFailedException`, `Lambda:Unhandled`, ...
    var type: String
    var message: String
    /// What the failure carries for the template besides its message (a conflicting item).
    var data: JSONValue = .null

    init(type: String, message: String, data: JSONValue = .null) {
        self.type = type
        self.message = message
        self.data = data
    }

    /// The failure as the field's error.
    var appSyncError: AppSyncError { AppSyncError(AppSyncErrorType(rawValue: type), message, data: data) }
}
