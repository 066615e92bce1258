import DeltaSyncAuth
import DeltaSyncCore
import DeltaSyncFunctions
import DeltaSyncSchema
import Logging

/// A field's `@function` directives run as the pipeline resolver Amplify generates for them:
/// each function gets AppSync's event with the previous one's result as `prev.result` (`{}`
/// for the first), and the last one's result is the field's value.
///
/// A function with `invocationType: Event` is started and not waited for: its result is
/// `{"success": true}`. A failure stops the pipeline and nulls the field with AppSync's
/// `Lambda:Unhandled` error carrying the function's message, the rest of the response kept.
struct FunctionPipeline: Sendable {
    /// The field as the event names it (`Query`/`echo`, `Post`/`wordCount`).
    let typeName: String
    let fieldName: String
    let calls: [CustomOperation.FunctionCall]
    let directory: (any FunctionDirectory)?
    let logger: Logger

    /// The request around the field: who asks and what they sent.
    struct Request: Sendable {
        /// Who asks; `nil` without authentication (the executor-only tests).
        var caller: Identity?
        var sourceIP: String?
        var headers: [String: String] = [:]

        /// `$ctx.identity`, built when a function needs it rather than for every request.
        var identity: JSONValue { caller?.contextValue(sourceIP: sourceIP) ?? .null }

        /// `$ctx.request`: the client's headers; `domainName` is set only for AppSync's
        /// custom domains.
        var json: JSONValue {
            ["headers": .object(headers.mapValues(JSONValue.string)), "domainName": .null]
        }
    }

    func resolve(arguments: JSONValue, source: JSONValue, request: Request) async throws(AppSyncError) -> JSONValue {
        var previous: JSONValue = [:]
        let identity = request.identity, requestValue = request.json
        for call in calls {
            let event: JSONValue = [
                "typeName": .string(typeName),
                "fieldName": .string(fieldName),
                "arguments": arguments,
                "identity": identity,
                "source": source,
                "request": requestValue,
                "prev": ["result": previous],
            ]
            previous = try await invoke(call, event: event)
        }
        return previous
    }

    private func invoke(_ call: CustomOperation.FunctionCall, event: JSONValue) async throws(AppSyncError) -> JSONValue {
        guard let configured = directory?.function(named: call.name) else {
            throw AppSyncError(
                Self.failedInvocation,
                "Function '\(call.name)' of \(typeName).\(fieldName) is not configured: name it in functions.json next to the schema or with --function, or add amplify/backend/function/<name>/src to the project.")
        }
        let invocation = LambdaInvocation(functionName: configured.name, event: event, timeout: configured.timeout)
        if call.isEvent {
            // Event invocations are queued by Lambda and never answer; AppSync answers at once.
            let logger = logger, typeName = typeName, fieldName = fieldName
            Task {
                do throws(FunctionFailure) {
                    _ = try await configured.function.invoke(invocation)
                } catch {
                    logger.warning(
                        "Event invocation of \(configured.name) for \(typeName).\(fieldName) failed: \(error.errorType): \(error.errorMessage)")
                }
            }
            return ["success": true]
        }
        do {
            return try await configured.function.invoke(invocation)
        } catch {
            logger.info("\(configured.name) for \(typeName).\(fieldName) failed: \(error.errorType): \(error.errorMessage)")
            throw AppSyncError(Self.failedInvocation, error.errorMessage)
        }
    }

    /// What AppSync reports for a Lambda that threw, timed out or answered nothing usable.
    static let failedInvocation: AppSyncErrorType = "Lambda:Unhandled"
}
