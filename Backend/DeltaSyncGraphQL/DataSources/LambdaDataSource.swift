import DeltaSyncCore
import DeltaSyncFunctions
import Logging

/// AppSync's Lambda data source over the server's function catalog: a request
/// `{"operation": "Invoke", "payload": ...}` calls the function with the payload as its event
/// and answers what it returns. `"invocationType": "Event"` starts it without waiting and
/// answers `{"success": true}` at once, as Lambda queues such calls.
package struct LambdaDataSource: DataSource {
    /// The function's name as the schema or the resolver writes it (`echo-${env}`).
    let functionName: String
    let directory: (any FunctionDirectory)?
    let logger: Logger

    var name: String { functionName }

    func invoke(_ request: JSONValue, context: ResolverContext) async throws(DataSourceFailure) -> JSONValue {
        guard let configured = directory?.function(named: functionName) else {
            throw DataSourceFailure(
                type: Self.failedInvocation.rawValue,
                message: "Function '\(functionName)' of \(context.field) is not configured: name it in functions.json next to the schema or with --function, or add amplify/backend/function/<name>/src to the project.")
        }
        let operation = request["operation"].stringValue ?? "Invoke"
        guard operation == "Invoke" || operation == "BatchInvoke" else {
            throw DataSourceFailure(type: "Lambda:InvalidRequest", message: "A Lambda request's operation is Invoke or BatchInvoke, not \(operation).")
        }
        let invocation = LambdaInvocation(functionName: configured.name, event: request["payload"], timeout: configured.timeout)
        if request["invocationType"].stringValue == "Event" {
            // Event invocations are queued by Lambda and never answer; AppSync answers at once.
            let logger = logger, field = context.field
            Task {
                do throws(FunctionFailure) {
                    _ = try await configured.function.invoke(invocation)
                } catch {
                    logger.warning("Event invocation of \(configured.name) for \(field) failed: \(error.errorType): \(error.errorMessage)")
                }
            }
            return ["success": true]
        }
        do {
            return try await configured.function.invoke(invocation)
        } catch {
            logger.info("\(configured.name) for \(context.field) failed: \(error.errorType): \(error.errorMessage)")
            throw DataSourceFailure(type: Self.failedInvocation.rawValue, message: error.errorMessage)
        }
    }

    /// The function's name in a Lambda ARN (`arn:aws:lambda:<region>:<account>:function:<name>[:<qualifier>]`),
    /// or the text itself when it is a bare name.
    ///
    /// ```swift
    /// LambdaDataSource.functionName(inArn: "arn:aws:lambda:us-east-1:123456789012:function:resize-dev:live")   // "resize-dev"
    /// ```
    package static func functionName(inArn arn: String) -> String {
        let parts = arn.split(separator: ":", omittingEmptySubsequences: false)
        guard let index = parts.firstIndex(of: "function"), index + 1 < parts.count else { return arn }
        return String(parts[index + 1])
    }

    /// What AppSync reports for a Lambda that threw, timed out or answered nothing usable.
    static let failedInvocation: AppSyncErrorType = "Lambda:Unhandled"
}
