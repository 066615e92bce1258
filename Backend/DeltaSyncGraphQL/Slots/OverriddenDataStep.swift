import DeltaSyncCore

/// A generated field's data step as the project's override files replace it
/// (``DataStepOverride``): a request template over the model's table instead of DeltaSync's read
/// or write, a response template over the step's result, or both.
///
/// A template's request reaches the table as DynamoDB's request, which knows nothing of the
/// caller: the caller must be granted the operation by the model's `@auth` rules first, and a
/// write whose rules narrow the caller to their own items (owner, dynamic groups) is refused,
/// since nothing proves the template's write stays within them. What a read returns still
/// passes the caller's read rules (``ResolvedValue``).
struct OverriddenDataStep: ResolverFunction {
    let field: GeneratedField
    /// DeltaSync's step, for an override of the response template alone.
    let generated: GeneratedDataStep
    /// The request template over the model's table and the response template after it.
    let template: TemplateFunction?
    /// The response template over the generated step's value, when only that is overridden.
    let response: MappingTemplate?

    var name: String { generated.name }

    func run(_ context: inout ResolverContext) async throws(AppSyncError) -> JSONValue {
        guard let template else {
            let result = try await generated.run(&context)
            guard let response else { return result }
            return try response.render(&context, result: result).value
        }
        guard let origin = context.origin else {
            throw AppSyncError(.internalFailure, "\(name) runs only within a request: it checks the caller first.")
        }
        let access = origin.scope.access(field.model, field.operation, origin.info)
        try access.require()
        if field.kind == .mutation, access.restriction != nil { throw access.denial }
        return try await template.run(&context)
    }
}
