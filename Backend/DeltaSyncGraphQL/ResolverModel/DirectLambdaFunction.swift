import DeltaSyncCore

/// A Lambda function called without mapping templates, AppSync's direct Lambda resolver and
/// what a `@function` directive generates: the event is the context itself (`typeName`,
/// `fieldName`, `arguments`, `identity`, `source`, `request`, `prev`), the function's answer
/// is the step's value, and its failure the field's error (`Lambda:Unhandled`).
struct DirectLambdaFunction: ResolverFunction {
    let dataSource: LambdaDataSource
    /// `invocationType: Event` on the directive: start the function, do not wait.
    var isEvent = false

    var name: String { dataSource.functionName }

    func run(_ context: inout ResolverContext) async throws(AppSyncError) -> JSONValue {
        let event: JSONValue = [
            "typeName": .string(context.field.type),
            "fieldName": .string(context.field.field),
            "arguments": .object(context.arguments),
            "identity": context.identity,
            "source": context.source,
            "request": context.request,
            // The first function of a pipeline sees `{}`, as Amplify's generated pipelines do.
            "prev": ["result": context.previousResult.isNull ? [:] : context.previousResult],
        ]
        var request: JSONValue = ["version": "2018-05-29", "operation": "Invoke", "payload": event]
        if isEvent { request = ["version": "2018-05-29", "operation": "Invoke", "invocationType": "Event", "payload": event] }
        do {
            return try await dataSource.invoke(request, context: context)
        } catch {
            throw error.appSyncError
        }
    }
}
