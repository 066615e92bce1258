import DeltaSyncCore

/// A step made of mapping templates around a data source, as AppSync runs them: the request
/// template renders the data source's request, the data source answers, the response template
/// turns the answer (`$ctx.result`, or the failure as `$ctx.error`) into the step's value.
///
/// ```swift
/// let step = TemplateFunction(
///     name: "echo", dataSource: NoneDataSource(),
///     request: try MappingTemplate(#"{"version": "2018-05-29", "payload": $util.toJson($ctx.args)}"#, name: "req"),
///     response: try MappingTemplate("$util.toJson($ctx.result)", name: "res"))
/// ```
struct TemplateFunction: ResolverFunction {
    let name: String
    let dataSource: any DataSource
    let request: MappingTemplate
    /// `nil` passes the data source's result on as it is.
    let response: MappingTemplate?
    /// A pipeline function's version (`functionVersion`, always 2018-05-29), which overrides the
    /// request's own; `nil` for a unit resolver, whose request names its version.
    var functionVersion: TemplateVersion? = .v2018

    func run(_ context: inout ResolverContext) async throws(AppSyncError) -> JSONValue {
        let requestObject: JSONValue
        switch try request.render(&context) {
        case .returned(let value): return value
        case .value(let value): requestObject = value
        }
        if context.trace != nil { context.sentRequest = requestObject }
        let version: TemplateVersion
        if let functionVersion { version = functionVersion } else { version = try TemplateVersion(request: requestObject, template: request.template.name) }
        var result: JSONValue = .null
        var failure: DataSourceFailure?
        do {
            result = try await dataSource.invoke(requestObject, context: context)
        } catch {
            failure = error
        }
        switch version {
        case .v2017:
            if let failure {
                let data = try response.map { template throws(AppSyncError) in try template.render(&context, error: failure).value }
                throw AppSyncError(AppSyncErrorType(rawValue: failure.type), failure.message, data: data ?? failure.data)
            }
            if result.isNull { return .null }
            guard let response else { return result }
            return try response.render(&context, result: result).value
        case .v2018:
            guard let response else {
                if let failure { throw failure.appSyncError }
                return result
            }
            // A failure's data (a versioned source's conflicting item) is the template's
            // `$ctx.result`, which Amplify's templates hand to `$util.error` as the error's data.
            return try response.render(&context, result: failure?.data ?? result, error: failure).value
        }
    }
}

extension MappingTemplate.Outcome {
    /// The value, whether printed or returned: a response template's `#return` ends the step
    /// as its output would.
    var value: JSONValue {
        switch self {
        case .value(let value), .returned(let value): return value
        }
    }
}
