import DeltaSyncCore

/// How a field is resolved, in AppSync's model: one function (a unit resolver), or a pipeline
/// of functions between a before and an after step (templates, or APPSYNC_JS code's `request`
/// and `response` handlers).
///
/// ```swift
/// let resolver = try FieldResolver.pipeline(before: nil, functions: [auth, getItem], after: nil)
/// var context = ResolverContext(field: FieldCoordinate(type: "Query", field: "getPost"), arguments: ["id": "p1"])
/// let value = try await resolver.resolve(&context)
/// ```
///
/// DeltaSync's generated model resolvers are not wrapped in this type: a field without a
/// resolver of the project's runs them directly, and pays nothing for the model.
enum FieldResolver: Sendable {
    /// A unit resolver: its function's value is the field's.
    case unit(any ResolverFunction)
    /// A pipeline resolver.
    case pipeline(Pipeline)

    /// A pipeline resolver, within AppSync's quota of functions.
    ///
    /// - Throws: ``AppSyncError`` (`BadRequest`) for more than ``Pipeline/maxFunctions``.
    static func pipeline(before: PipelineHandler?, functions: [any ResolverFunction], after: PipelineHandler?) throws(AppSyncError) -> FieldResolver {
        guard functions.count <= Pipeline.maxFunctions else {
            throw AppSyncError(.badRequest, "A pipeline resolver runs at most \(Pipeline.maxFunctions) functions; this one lists \(functions.count).")
        }
        return .pipeline(Pipeline(before: before, functions: functions, after: after))
    }

    /// The before step, the functions in order, the after step.
    struct Pipeline: Sendable {
        let before: PipelineHandler?
        let functions: [any ResolverFunction]
        let after: PipelineHandler?

        /// AppSync's quota of functions in one pipeline.
        static let maxFunctions = 10
    }

    /// The field's value.
    ///
    /// - Throws: ``AppSyncError``: the first error a step raised; the field is `null`.
    func resolve(_ context: inout ResolverContext) async throws(AppSyncError) -> JSONValue {
        switch self {
        case .unit(let function):
            return try await Self.step(function.name, &context) { (context: inout ResolverContext) throws(AppSyncError) in try await function.run(&context) }
        case .pipeline(let pipeline):
            var skipsFunctions = false
            if let before = pipeline.before {
                var returned: JSONValue?
                context.previousResult = try await Self.step("before", &context) { (context: inout ResolverContext) throws(AppSyncError) in
                    switch before {
                    case .template(let template):
                        switch try template.render(&context) {
                        // A before template's #return returns from the whole resolver.
                        case .returned(let value):
                            returned = value
                            return value
                        case .value(let value): return value
                        }
                    case .code(let code):
                        switch try await code.call(.request, &context) {
                        // The request handler's earlyReturn skips the functions; the response
                        // handler still runs (skipTo NEXT goes on to the first function).
                        case .returned(let value, let skipTo):
                            skipsFunctions = skipTo != .next
                            return value
                        case .value(let value): return value
                        }
                    }
                }
                if let returned { return returned }
            }
            for function in pipeline.functions where !skipsFunctions {
                context.previousResult = try await Self.step(function.name, &context) { (context: inout ResolverContext) throws(AppSyncError) in
                    let step = try await function.runInPipeline(&context)
                    skipsFunctions = step.skipsRemainingFunctions
                    return step.value
                }
            }
            guard let after = pipeline.after else { return context.previousResult }
            // The after step reads the last function's value as prev.result and as result.
            return try await Self.step("after", &context) { (context: inout ResolverContext) throws(AppSyncError) in
                switch after {
                case .template(let template):
                    return try template.render(&context, result: context.previousResult).value
                case .code(let code):
                    switch try await code.call(.response, &context, result: context.previousResult) {
                    case .value(let value), .returned(let value, _): return value
                    }
                }
            }
        }
    }

    /// Runs one step, recorded in the context's trace when the request is traced.
    private static func step(
        _ name: String, _ context: inout ResolverContext, _ run: (inout ResolverContext) async throws(AppSyncError) -> JSONValue
    ) async throws(AppSyncError) -> JSONValue {
        guard context.trace != nil else { return try await run(&context) }
        context.sentRequest = nil
        do {
            let value = try await run(&context)
            let step = ResolverStepTrace(field: context.field.description, step: name, request: context.sentRequest ?? .null, output: value)
            context.trace?.append(step)
            return value
        } catch {
            let step = ResolverStepTrace(
                field: context.field.description, step: name, request: context.sentRequest ?? .null, output: .null,
                error: "\(error.errorType.rawValue): \(error.message)")
            context.trace?.append(step)
            throw error
        }
    }
}
