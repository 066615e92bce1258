import DeltaSyncCore
import DeltaSyncFunctions

extension LambdaConflictHandlers {
    /// Runs `function` (a project's Node or Python handler, an endpoint, a Swift closure) with
    /// AppSync's conflict payload as its event, and reads its answer as AppSync reads a
    /// conflict handler Lambda's.
    ///
    /// ```swift
    /// let resolver = ClosureFunction { event in ["action": "RESOLVE", "item": event.event["newItem"]] }
    /// configuration.lambdaConflictHandler = LambdaConflictHandlers.function(resolver, name: "resolver")
    /// ```
    public static func function(_ function: any LambdaFunction, name: String, timeout: Duration = .seconds(10)) -> LambdaConflictHandler {
        { request in
            let answer: JSONValue
            do throws(FunctionFailure) {
                answer = try await function.invoke(LambdaInvocation(functionName: name, event: request.json, timeout: timeout))
            } catch {
                throw AppSyncError(.conflictError, "The conflict handler \(name) failed: \(error.errorType): \(error.errorMessage)")
            }
            return try LambdaConflictResponse(json: answer)
        }
    }
}
