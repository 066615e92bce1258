import DeltaSyncCore

/// A mapping template's `version`, which decides how a data source's failure and a null
/// result reach the response template (AppSync's resolver mapping template versions).
enum TemplateVersion: String, Sendable {
    /// The response template runs only for a non-null result; a data source failure is the
    /// field's error, with the response template's output as its `data`.
    case v2017 = "2017-02-28"
    /// The response template always runs and decides: a failure is the field's error only if
    /// the template raises it (`$util.error($ctx.error.message, $ctx.error.type)`).
    case v2018 = "2018-05-29"

    /// The version a request object names; AppSync refuses a request without a known one.
    init(request: JSONValue, template: String) throws(AppSyncError) {
        guard let text = request["version"].stringValue, let version = TemplateVersion(rawValue: text) else {
            throw AppSyncError(
                MappingTemplate.errorType,
                "The request of \(template) names no known version: set \"version\" to \"2018-05-29\" (or \"2017-02-28\").")
        }
        self = version
    }
}
