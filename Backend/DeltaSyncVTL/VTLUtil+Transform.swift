/// `$util.transform`: Amplify's filter input as a DynamoDB expression
/// (``VTLFilterExpression``) or as a subscription filter (``VTLSubscriptionFilter``).
/// `toElasticsearchQueryDSL` is not here (DeltaSync has no OpenSearch data source).
extension VTLUtil {
    /// The value of `$util.transform.<name>(arguments)`; `nil` for a name outside `transform`.
    static func transform(_ name: String, _ arguments: [VTLValue], in evaluation: VTLEvaluation, at position: VTLPosition) throws -> VTLValue? {
        let fail = { (message: String) in evaluation.failure("$util.\(name): \(message)", at: position) }
        switch name {
        case "transform.toDynamoDBFilterExpression", "transform.toDynamoDBConditionExpression":
            guard arguments.count == 1 else { throw fail("takes 1 argument, the filter map, got \(arguments.count)") }
            // A JSON string, as AppSync returns it (templates read it with $util.parseJson).
            return .string(try VTLFilterExpression.expression(of: arguments[0], fail: fail).jsonText)
        case "transform.toSubscriptionFilter":
            guard (1...3).contains(arguments.count) else { throw fail("takes 1 to 3 arguments, got \(arguments.count)") }
            var ignored: Set<String> = []
            if arguments.count > 1 {
                switch arguments[1] {
                case .null: break
                case .list(let list): ignored = Set(list.items.map(\.rendered))
                default: throw fail("argument 2 must be a list of field names to ignore")
                }
            }
            let rules = arguments.count > 2 ? arguments[2] : .null
            guard rules.isNull || rules.typeName == "Map" else { throw fail("argument 3 must be a map of rules") }
            return try VTLSubscriptionFilter.filter(arguments[0], ignoring: ignored, rules: rules, fail: fail)
        default:
            return nil
        }
    }
}
