import DeltaSyncCore

/// One step of a resolver, AppSync's function: what a unit resolver is made of, and what a
/// pipeline resolver runs one after another. Mapping templates over a data source
/// (``TemplateFunction``), a Lambda function called directly (``DirectLambdaFunction``) and
/// an `@http` call (``HTTPResolver``) are its implementations.
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
}
