import DeltaSyncCore

/// One step of a resolver, AppSync's function: what a unit resolver is made of, and what a
/// pipeline resolver runs one after another. Mapping templates over a data source
/// (``TemplateFunction``), APPSYNC_JS code over a data source (``CodeFunction``), a Lambda
/// function called directly (``DirectLambdaFunction``) and an `@http` call (``HTTPResolver``)
/// are its implementations.
///
/// ```swift
/// var context = ResolverContext(field: FieldCoordinate(type: "Query", field: "echo"), arguments: ["msg": "hi"])
/// let value = try await function.run(&context)   // the next step's $ctx.prev.result
/// ```
protocol ResolverFunction: Sendable {
    /// The function's name, for errors and logs.
    var name: String { get }

    /// Runs the step over `context` and returns its value: the next step's
    /// `$ctx.prev.result`, or the field's value for the last step of a unit resolver.
    ///
    /// - Throws: ``AppSyncError``: the field is `null` with it, and no later step runs.
    func run(_ context: inout ResolverContext) async throws(AppSyncError) -> JSONValue

    /// Runs the step as a pipeline's function: its value, and whether the pipeline's remaining
    /// functions are skipped (APPSYNC_JS `runtime.earlyReturn(value, {skipTo: 'END'})`).
    func runInPipeline(_ context: inout ResolverContext) async throws(AppSyncError) -> PipelineStepResult
}

extension ResolverFunction {
    func runInPipeline(_ context: inout ResolverContext) async throws(AppSyncError) -> PipelineStepResult {
        PipelineStepResult(value: try await run(&context))
    }
}

/// What a pipeline's function hands on.
struct PipelineStepResult: Sendable {
    /// The next step's `ctx.prev.result`.
    var value: JSONValue
    /// Whether the pipeline goes straight to its after step.
    var skipsRemainingFunctions = false
}
