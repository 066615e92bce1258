import DeltaSyncCore

/// A data source the project defines that DeltaSync does not run: every call fails with
/// `UnsupportedOperation` and the reason, which the field's template sees as `$ctx.error`
/// (and re-raises, as Amplify's templates do).
struct UnsupportedDataSource: DataSource {
    let name: String
    let reason: String

    func invoke(_ request: JSONValue, context: ResolverContext) async throws(DataSourceFailure) -> JSONValue {
        throw DataSourceFailure(type: AppSyncErrorType.unsupportedOperation.rawValue, message: "The data source \(name) does not run on DeltaSync: \(reason).")
    }
}
