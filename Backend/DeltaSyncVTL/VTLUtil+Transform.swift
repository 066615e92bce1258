/// `$util.transform`: Amplify's filter input as a DynamoDB expression
/// (``VTLFilterExpression``) or as a subscription filter (``VTLSubscriptionFilter``).
/// `toElasticsearchQueryDSL` is not here (DeltaSync has no OpenSearch data source).
extension VTLUtil {
    static let transformFunctions: [String: VTLUtilFunction] = [
        "transform.toDynamoDBFilterExpression": dynamoDBExpression,
        "transform.toDynamoDBConditionExpression": dynamoDBExpression,
        "transform.toSubscriptionFilter": { _, call in
            guard (1...3).contains(call.arguments.count) else { throw call.failure("takes 1 to 3 arguments, got \(call.arguments.count)") }
            var ignored: Set<String> = []
            switch call[1] {
            case .null: break
            case .list(let list): ignored = Set(list.items.map(\.rendered))
            default: throw call.failure("argument 2 must be a list of field names to ignore")
            }
            let rules = call[2]
            guard rules.isNull || rules.typeName == "Map" else { throw call.failure("argument 3 must be a map of rules") }
            return try VTLSubscriptionFilter.filter(call[0], ignoring: ignored, rules: rules, fail: call.failure)
        },
    ]

    private static func dynamoDBExpression(_ e: inout VTLEvaluation, _ call: VTLUtilCall) throws -> VTLValue {
        guard call.arguments.count == 1 else { throw call.failure("takes 1 argument, the filter map, got \(call.arguments.count)") }
        // A JSON string, as AppSync returns it (templates read it with $util.parseJson).
        return .string(try VTLFilterExpression.expression(of: call[0], fail: call.failure).jsonText)
    }
}
