import DeltaSyncCore
import DeltaSyncVTL

/// A request or response mapping template: Velocity rendered over the run's
/// ``ResolverContext``, its text read as one strict JSON document, as AppSync reads it.
///
/// ```swift
/// let template = try MappingTemplate(#"{"version": "2018-05-29", "payload": $util.toJson($ctx.args)}"#, name: "Query.echo.req.vtl")
/// switch try template.render(&context) {
/// case .value(let request): ...     // the data source's request
/// case .returned(let value): ...    // #return: the step ends with this value
/// }
/// ```
struct MappingTemplate: Sendable {
    let template: VTLTemplate
    /// Whether the text names `$ctx.info`'s selection set, which is then made for it.
    let readsSelection: Bool
    /// How far a rendering may go.
    var limits = VTLLimits()

    /// - Throws: ``AppSyncError`` (`MappingTemplate`) with the template's name, line and column
    ///   when it cannot be parsed.
    init(_ text: String, name: String) throws(AppSyncError) {
        readsSelection = text.contains("selectionSet")
        do {
            template = try VTLTemplate(text, name: name)
        } catch {
            throw AppSyncError(Self.errorType, error.description)
        }
    }

    /// What a rendering gives the step.
    enum Outcome: Sendable, Equatable {
        /// The template's text, parsed.
        case value(JSONValue)
        /// `#return` ended it: the step's (or the resolver's) value, the rest skipped.
        case returned(JSONValue)
    }

    /// Renders over `context` (`$ctx` with `result`/`error` for a response template); changes
    /// the template made to `$ctx.args` and `$ctx.stash` stay in `context`, errors it appended
    /// are added to it.
    ///
    /// - Throws: ``AppSyncError``: `$util.error` and `$util.unauthorized` as the template raised
    ///   them, `MappingTemplate` for a template that fails or prints something that is not JSON.
    func render(_ context: inout ResolverContext, result: JSONValue? = nil, error: DataSourceFailure? = nil) throws(AppSyncError) -> Outcome {
        let ctx = VTLValue(json: context.contextValue(result: result, error: error, readsSelection: readsSelection))
        // `$ctx.args` and `$ctx.arguments` are one map, and `$context` is `$ctx`.
        if case .map(let map) = ctx, let arguments = map.entries["arguments"] { map.entries["args"] = arguments }
        let rendering: VTLRendering
        do {
            rendering = try template.render(["ctx": ctx, "context": ctx], limits: limits, runtime: context.runtime)
        } catch let raised as VTLRaisedError {
            throw raised.appSyncError(field: context.field)
        } catch {
            throw AppSyncError(Self.errorType, "\(error)")
        }
        if case .map(let map) = ctx {
            if case .object(let arguments)? = map.entries["arguments"]?.json { context.arguments = arguments }
            if case .object(let stash)? = map.entries["stash"]?.json { context.stash = stash }
        }
        context.appendedErrors += rendering.appendedErrors.map { $0.appSyncError(field: context.field) }
        context.extensions += rendering.extensions.map(RecordedExtension.init)
        if let returned = rendering.returned {
            guard let value = returned else { return .returned(.null) }
            // A string is JSON text, as printed output is: `#return($util.toJson(null))` is
            // null. One that is not JSON (`#return("done")`) is the string itself.
            if case .string(let text) = value { return .returned((try? JSONValue(parsing: text)) ?? value.json) }
            return .returned(value.json)
        }
        return .value(try Self.parse(rendering.output))
    }

    /// The template's text as JSON, with AppSync's errors for text that is not.
    static func parse(_ output: String) throws(AppSyncError) -> JSONValue {
        let text = output.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw AppSyncError(errorType, "Template transformation yielded an empty response.") }
        do {
            return try JSONValue(parsing: text)
        } catch {
            throw AppSyncError(errorType, "Unable to convert \(text) to Object.")
        }
    }

    /// AppSync's `errorType` for a template that fails or prints what is not JSON.
    static let errorType: AppSyncErrorType = "MappingTemplate"
}

extension VTLRaisedError {
    /// The error as the field reports it: `$util.error`'s type defaults to
    /// `CustomTemplateException`; `$util.unauthorized()` names the field.
    func appSyncError(field: FieldCoordinate) -> AppSyncError {
        if errorType == "Unauthorized", message == "Not Authorized to access this field" {
            return .fieldUnauthorized(field.field, on: field.type)
        }
        return AppSyncError(
            AppSyncErrorType(rawValue: errorType ?? "CustomTemplateException"), message, data: data.json, errorInfo: errorInfo.json)
    }
}

extension RecordedExtension {
    init(_ call: VTLExtensionCall) {
        switch call {
        case .setSubscriptionFilter(let filter): self.init(name: "setSubscriptionFilter", value: filter.json)
        case .setSubscriptionInvalidationFilter(let filter): self.init(name: "setSubscriptionInvalidationFilter", value: filter.json)
        case .invalidateSubscriptions(let field, let payload):
            self.init(name: "invalidateSubscriptions", value: ["subscriptionField": .string(field), "payload": payload.json])
        case .evictFromApiCache(let type, let field, let keys):
            self.init(name: "evictFromApiCache", value: ["typeName": .string(type), "fieldName": .string(field), "keys": keys.json])
        }
    }
}
