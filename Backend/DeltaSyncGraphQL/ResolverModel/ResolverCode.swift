import DeltaSyncCore
import DeltaSyncFunctions
import DeltaSyncJSRuntime
import DeltaSyncVTL

/// APPSYNC_JS code as a resolver's steps call it: a handler (`request` or `response`) evaluated
/// over the run's ``ResolverContext`` (`ctx`), whose changes to `ctx.stash` and `ctx.args` stay
/// in the context, whose appended errors and `extensions` calls are added to it, and whose
/// console lines go to the server's log with the field. ``MappingTemplate`` is the VTL
/// counterpart.
///
/// ```swift
/// let code = try ResolverCode(TemplateText(name: "echo.js", text: text), runtime: runtime)
/// switch try await code.call(.request, &context) {
/// case .value(let request): ...              // the data source's request
/// case .returned(let value, let skipTo): ...  // runtime.earlyReturn
/// }
/// ```
struct ResolverCode: Sendable {
    let code: JSCode
    let runtime: AppSyncJSRuntime

    /// - Throws: ``AppSyncError`` (`BadRequest`) with the file, line and column for code AppSync
    ///   would not save (``JSCodeError``).
    init(_ text: TemplateText, runtime: AppSyncJSRuntime) throws(AppSyncError) {
        do {
            code = try JSCode(name: text.name, text: text.text)
        } catch {
            throw AppSyncError(.badRequest, error.description)
        }
        self.runtime = runtime
    }

    /// What a handler gives the step.
    enum Outcome: Sendable, Equatable {
        /// Its return value.
        case value(JSONValue)
        /// `runtime.earlyReturn(value, {skipTo})`.
        case returned(JSONValue, skipTo: JSEvaluation.SkipTo?)
    }

    /// Calls `handler` over `context` (with `ctx.result` and `ctx.error` for a response handler).
    ///
    /// - Throws: ``AppSyncError``: `util.error` and `util.unauthorized` as the code raised them
    ///   (`CustomTemplateException` when it named no type), `Code` for code that fails.
    func call(_ handler: JSHandler, _ context: inout ResolverContext, result: JSONValue? = nil, error: DataSourceFailure? = nil) async throws(AppSyncError) -> Outcome {
        let ctx = context.contextValue(result: result, error: error, readsSelection: code.readsSelection)
        let evaluation: JSEvaluation
        do {
            evaluation = try await runtime.evaluate(handler, of: code, context: ctx, now: context.runtime.clock(), authType: context.runtime.authType)
        } catch {
            throw AppSyncError(AppSyncErrorType(rawValue: error.errorType), error.errorMessage)
        }
        context.stash = evaluation.stash
        context.arguments = evaluation.arguments
        context.appendedErrors += evaluation.appendedErrors.map { $0.appSyncError }
        context.extensions += evaluation.extensions.map { RecordedExtension(name: $0.name, value: $0.value) }
        if let log = context.runtime.log {
            for line in evaluation.logs { log(VTLLogLine(level: Self.level(line.level), message: line.message)) }
        }
        switch evaluation.outcome {
        case .value(let value): return .value(value)
        case .earlyReturn(let value, let skipTo): return .returned(value, skipTo: skipTo)
        case .raised(let raised): throw raised.appSyncError
        case .unauthorized: throw .fieldUnauthorized(context.field.field, on: context.field.type)
        }
    }

    /// `console.log` and `console.info` are info lines; `warn` and `error` error lines.
    private static func level(_ console: String) -> VTLLogLine.Level {
        switch console {
        case "debug": .debug
        case "warn", "error": .error
        default: .info
        }
    }
}

extension JSRaisedError {
    /// The error as the field reports it: a type defaults to `CustomTemplateException`, as
    /// `$util.error`'s does.
    var appSyncError: AppSyncError {
        AppSyncError(AppSyncErrorType(rawValue: errorType ?? "CustomTemplateException"), message, data: data, errorInfo: errorInfo)
    }
}
