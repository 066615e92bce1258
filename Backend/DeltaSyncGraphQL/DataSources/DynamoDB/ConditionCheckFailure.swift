import DeltaSyncCore
import DeltaSyncDynamoDB
import DeltaSyncFunctions

/// What a write does when its condition fails and the stored item is not what it would have
/// written: `condition.conditionalCheckFailedHandler`.
///
/// ```json
/// "conditionalCheckFailedHandler": { "strategy": "Custom", "lambdaArn": "arn:aws:lambda:us-east-1:123456789012:function:resolveTodo-dev" }
/// ```
enum ConditionCheckFailure: Sendable, Equatable {
    /// AppSync's default: the write fails with `DynamoDB:ConditionalCheckFailedException`.
    case reject
    /// A Lambda function decides: reject, discard (answer the stored item) or retry once with
    /// new values and a new condition.
    case custom(lambdaArn: String)

    init(_ handler: JSONValue) throws(DataSourceFailure) {
        if handler.isNull {
            self = .reject
            return
        }
        guard handler.objectValue != nil else {
            throw DataSourceFailure.validation("'conditionalCheckFailedHandler' must be an object with a strategy (Reject or Custom), not \(handler.jsonText).")
        }
        switch handler["strategy"].stringValue {
        case "Reject":
            self = .reject
        case "Custom":
            guard let arn = handler["lambdaArn"].stringValue, !arn.isEmpty else {
                throw DataSourceFailure.validation("A conditionalCheckFailedHandler with the Custom strategy needs 'lambdaArn', the function that decides.")
            }
            self = .custom(lambdaArn: arn)
        default:
            throw DataSourceFailure.validation(
                "conditionalCheckFailedHandler's strategy is Reject or Custom, not \(handler["strategy"].jsonText).")
        }
    }

    /// The function's name in an ARN (`arn:aws:lambda:<region>:<account>:function:<name>[:<qualifier>]`),
    /// or the text itself when it is a bare name.
    static func functionName(inArn arn: String) -> String {
        let parts = arn.split(separator: ":", omittingEmptySubsequences: false)
        guard let index = parts.firstIndex(of: "function"), index + 1 < parts.count else { return arn }
        return String(parts[index + 1])
    }

    /// What the function answered.
    enum Decision: Sendable, Equatable {
        case reject
        /// Answer the stored item, without an error.
        case discard
        /// Write again with the request's `attributeValues`, `update`, `condition` and
        /// `_version` replaced by these.
        case retry(JSONValue)

        /// - Throws: `Lambda:Unhandled` for an answer that is not one of AppSync's actions.
        init(_ answer: JSONValue, function: String) throws(DataSourceFailure) {
            switch answer["action"].stringValue?.lowercased() {
            case "reject": self = .reject
            case "discard": self = .discard
            case "retry":
                guard answer["retryMapping"].objectValue != nil else {
                    throw DataSourceFailure(
                        type: LambdaDataSource.failedInvocation.rawValue,
                        message: "The conditional check handler \(function) answered retry without a retryMapping object.")
                }
                self = .retry(answer["retryMapping"])
            default:
                throw DataSourceFailure(
                    type: LambdaDataSource.failedInvocation.rawValue,
                    message: "The conditional check handler \(function) must answer {\"action\": \"reject\" | \"discard\" | \"retry\"}, not \(answer.jsonText).")
            }
        }
    }
}

extension DynamoDBDataSource {
    /// Asks the handler's function what to do about a failed condition and does it.
    ///
    /// The function gets `arguments`, `requestMapping` (the request as the template wrote it),
    /// `currentValue` (the stored item, typed), `resolver` and `identity`. A retry is tried once:
    /// if its condition fails too, the write is rejected.
    func resolveConditionFailure(
        lambdaArn: String, operation: String, request: JSONValue, existing: Item?, context: ResolverContext
    ) async throws -> JSONValue {
        let decision = try await askConditionHandler(lambdaArn, request: request, existing: existing, context: context)
        switch decision {
        case .reject:
            return try Self.result(of: .conditionFailed(existing), table: table)
        case .discard:
            return existing.map(JSONValue.object) ?? .null
        case .retry(let mapping):
            var retried = request.objectValue ?? [:]
            for name in ["attributeValues", "update", "condition", "_version"] { retried[name] = mapping[name].isNull ? nil : mapping[name] }
            // A retry that fails its condition is rejected, whatever handler it names.
            retried["condition"] = retried["condition"].flatMap { condition in
                condition.objectValue.map { JSONValue.object($0.filter { $0.key != "conditionalCheckFailedHandler" }) }
            }
            let write = try WriteRequest(operation, .object(retried), table: table)
            return try Self.result(of: try await commit(write), table: table)
        }
    }

    private func askConditionHandler(
        _ lambdaArn: String, request: JSONValue, existing: Item?, context: ResolverContext
    ) async throws(DataSourceFailure) -> ConditionCheckFailure.Decision {
        let name = ConditionCheckFailure.functionName(inArn: lambdaArn)
        guard let configured = conditionHandler(named: name) else {
            throw DataSourceFailure(
                type: LambdaDataSource.failedInvocation.rawValue,
                message: "The conditional check handler '\(name)' (\(lambdaArn)) is not configured: name it in functions.json next to the schema or with --function, or add amplify/backend/function/<name>/src to the project.")
        }
        let event: JSONValue = [
            "arguments": .object(context.arguments),
            "requestMapping": request,
            "currentValue": existing.map(AttributeValue.typedItem) ?? .null,
            "resolver": [
                "tableName": .string(table.model.name), "awsRegion": .string(environment.region),
                "parentType": .string(context.field.type), "field": .string(context.field.field),
                "outputType": .string(table.model.name),
            ],
            "identity": context.identity,
        ]
        let answer: JSONValue
        do {
            answer = try await configured.function.invoke(LambdaInvocation(functionName: configured.name, event: event, timeout: configured.timeout))
        } catch {
            environment.logger.info("The conditional check handler \(configured.name) for \(context.field) failed: \(error.errorType): \(error.errorMessage)")
            throw DataSourceFailure(type: LambdaDataSource.failedInvocation.rawValue, message: error.errorMessage)
        }
        return try ConditionCheckFailure.Decision(answer, function: configured.name)
    }

    /// The function an ARN names. An ARN carries the deployed name (`resolveTodo-dev`); the
    /// project's functions are known by the name they are written with (`resolveTodo-${env}`),
    /// so the environment suffix is tried as `${env}` too.
    private func conditionHandler(named name: String) -> ConfiguredFunction? {
        guard let functions = environment.functions else { return nil }
        if let found = functions.function(named: name) { return found }
        guard let dash = name.lastIndex(of: "-") else { return nil }
        return functions.function(named: name[..<dash] + "-${env}")
    }
}
