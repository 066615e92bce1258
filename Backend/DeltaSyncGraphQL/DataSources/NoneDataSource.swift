import DeltaSyncCore

/// AppSync's `NONE` data source: the request's `payload` comes back as the result, for
/// templates that compute a value or publish to subscriptions without storing anything.
struct NoneDataSource: DataSource {
    var name = "NONE"

    func invoke(_ request: JSONValue, context: ResolverContext) async throws(DataSourceFailure) -> JSONValue {
        request["payload"]
    }
}
