import DeltaSyncCore

/// How a field is resolved, in AppSync's model: one function (a unit resolver), or a pipeline
/// of functions between a before and an after template.
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
    static func pipeline(before: MappingTemplate?, functions: [any ResolverFunction], after: MappingTemplate?) throws(AppSyncError) -> FieldResolver {
        guard functions.count <= Pipeline.maxFunctions else {
            throw AppSyncError(.badRequest, "A pipeline resolver runs at most \(Pipeline.maxFunctions) functions; this one lists \(functions.count).")
        }
        return .pipeline(Pipeline(before: before, functions: functions, after: after))
    }

    /// The before template, the functions in order, the after template.
    struct Pipeline: Sendable {
        let before: MappingTemplate?
        let functions: [any ResolverFunction]
        let after: MappingTemplate?

        /// AppSync's quota of functions in one pipeline.
        static let maxFunctions = 10
    }

    /// The field's value.
    ///
    /// - Throws: ``AppSyncError``: the first error a step raised; the field is `null`.
    func resolve(_ context: inout ResolverContext) async throws(AppSyncError) -> JSONValue {
        switch self {
        case .unit(let function):
            return try await function.run(&context)
        case .pipeline(let pipeline):
            if let before = pipeline.before {
                switch try before.render(&context) {
                // A before template's #return returns from the whole resolver.
                case .returned(let value): return value
                case .value(let value): context.previousResult = value
                }
            }
            for function in pipeline.functions {
                context.previousResult = try await function.run(&context)
            }
            guard let after = pipeline.after else { return context.previousResult }
            // The after template reads the last function's value as prev.result and as result.
            return try after.render(&context, result: context.previousResult).value
        }
    }
}
