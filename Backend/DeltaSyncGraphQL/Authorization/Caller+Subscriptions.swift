import DeltaSyncCore
import DeltaSyncSchema

extension Caller {
    /// Which events of the model subscription `field` the caller receives, decided when it
    /// starts, as Amplify's subscription resolver decides it:
    ///
    /// 1. a static grant (`private`, a static group, API key, IAM, Lambda) receives every event,
    ///    narrowed only by the arguments it passes;
    /// 2. an `owner` argument must name the caller (composite claim, `sub` or `username`), else
    ///    the start is refused; then the argument alone filters;
    /// 3. otherwise owner and dynamic group rules filter events to the caller's items;
    /// 4. with no rule for the caller, the start is refused with
    ///    `Not Authorized to access onCreateTodo on type Subscription`.
    ///
    /// An empty owner argument counts as absent (Amplify Swift sends `""` without a token).
    /// The `filter` and the arguments may compare only fields the caller may read.
    ///
    /// - Returns: the argument filters to apply and the restriction to check every event against.
    package func subscription(
        _ field: String, filter: QueryPredicate, arguments: [(field: String, value: JSONValue)]
    ) throws(AppSyncError) -> (arguments: [(field: String, value: JSONValue)], restriction: ItemRestriction?) {
        guard let model = policy.subscribedModel(field) else { return (arguments, nil) }
        let access = access(model, .listen, field: field, parentType: "Subscription")
        try access.require()
        try requireReadable(filter, of: model, within: access.restriction)
        try requireReadable(
            keyFields: arguments.map(\.field).filter { !model.subscriptionOwnerArguments.contains($0) }, of: model,
            within: access.restriction)
        let ownerArguments = Set(model.subscriptionOwnerArguments)
        let given = arguments.filter { !(ownerArguments.contains($0.field) && $0.value == .string("")) }
        guard let restriction = access.restriction else { return (given, nil) }
        var ownerArgumentMatched = false
        for argument in given where ownerArguments.contains(argument.field) && !argument.value.isNull {
            let names = restriction.conditions.filter { $0.field == argument.field }.flatMap(\.values)
            guard let value = argument.value.stringValue, names.contains(value) else { throw access.denial }
            ownerArgumentMatched = true
        }
        return (given, ownerArgumentMatched ? nil : restriction)
    }
}

extension Caller {
    /// Whether events of subscription `field` may show this caller fewer fields or related
    /// items than others, so their event plan cannot be shared.
    package func mayDenyFields(ofSubscription field: String) -> Bool {
        guard let model = policy.subscribedModel(field) else { return false }
        return mayDeny(on: model.name) || (!policy.isOpen && !model.relationFields.isEmpty)
    }
}
