import DeltaSyncCore

/// A step of APPSYNC_JS code around a data source, as AppSync runs a JavaScript unit resolver or
/// pipeline function: `request(ctx)` returns the data source's request, the data source answers,
/// `response(ctx)` turns the answer (`ctx.result`, or the failure as `ctx.error`) into the
/// step's value. The response handler always runs, as a 2018-05-29 template does: a failure is
/// the field's error only if the code raises it (`util.error(ctx.error.message, ctx.error.type)`).
///
/// ```swift
/// let step = CodeFunction(name: "echo", dataSource: NoneDataSource(), code: try ResolverCode(text, runtime: runtime))
/// let value = try await step.run(&context)
/// ```
///
/// `runtime.earlyReturn(value)` in the request handler skips the data source and the response
/// handler; with `{skipTo: 'END'}` in a pipeline, the remaining functions too.
struct CodeFunction: ResolverFunction {
    let name: String
    let dataSource: any DataSource
    let code: ResolverCode

    func run(_ context: inout ResolverContext) async throws(AppSyncError) -> JSONValue {
        try await runInPipeline(&context).value
    }

    func runInPipeline(_ context: inout ResolverContext) async throws(AppSyncError) -> PipelineStepResult {
        let request: JSONValue
        switch try await code.call(.request, &context) {
        case .returned(let value, let skipTo):
            return PipelineStepResult(value: value, skipsRemainingFunctions: skipTo == .end)
        case .value(let value):
            request = value
        }
        if context.trace != nil { context.sentRequest = request }
        var result: JSONValue = .null
        var failure: DataSourceFailure?
        do {
            result = try await dataSource.invoke(request, context: context)
        } catch {
            failure = error
        }
        // A failure's data (a versioned source's conflicting item) is the code's ctx.result,
        // as it is a template's $ctx.result.
        switch try await code.call(.response, &context, result: failure?.data ?? result, error: failure) {
        case .value(let value), .returned(let value, _):
            return PipelineStepResult(value: value)
        }
    }
}
