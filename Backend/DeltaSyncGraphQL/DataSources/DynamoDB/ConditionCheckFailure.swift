import DeltaSyncCore
import DeltaSyncDynamoDB

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

    /// Calls the handler as a Lambda data source calls its function: the same lookup, errors
    /// (`Lambda:Unhandled`) and logging.
    private func askConditionHandler(
        _ lambdaArn: String, request: JSONValue, existing: Item?, context: ResolverContext
    ) async throws(DataSourceFailure) -> ConditionCheckFailure.Decision {
        let name = LambdaDataSource.functionName(inArn: lambdaArn)
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
        let handler = LambdaDataSource(functionName: name, directory: environment.functions, logger: environment.logger)
        let answer = try await handler.invoke(["operation": "Invoke", "payload": event], context: context)
        return try ConditionCheckFailure.Decision(answer, function: name)
    }
}
