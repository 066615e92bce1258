import DeltaSyncCore

/// AppSync's enhanced subscription filter (`$extensions.setSubscriptionFilter`'s argument,
/// what `$util.transform.toSubscriptionFilter` builds):
/// `{"filterGroup": [{"filters": [{"fieldName", "operator", "value"}]}]}`, groups ORed and the
/// filters of a group ANDed, as a predicate over events' items.
enum SubscriptionFilterGroups {
    /// - Throws: ``AppSyncError`` (`FilterValidationError`) for a filter of another shape or an
    ///   operator AppSync does not have.
    static func predicate(_ filter: JSONValue) throws(AppSyncError) -> QueryPredicate {
        guard case .array(let groups)? = filter.objectValue?["filterGroup"] else {
            throw AppSyncError(.filterValidation, "setSubscriptionFilter takes {\"filterGroup\": [{\"filters\": [...]}]}, as $util.transform.toSubscriptionFilter builds it.")
        }
        var alternatives: [JSONValue] = []
        for group in groups {
            guard case .array(let filters)? = group.objectValue?["filters"] else {
                throw AppSyncError(.filterValidation, "Each filterGroup entry holds a list of filters.")
            }
            var conditions: [JSONValue] = []
            for filter in filters { conditions.append(try condition(filter)) }
            alternatives.append(["and": .array(conditions)])
        }
        do {
            return try QueryPredicate(filter: ["or": .array(alternatives)])
        } catch {
            throw AppSyncError(.filterValidation, "The subscription filter is not valid: \(error)")
        }
    }

    /// One `{fieldName, operator, value}` as a filter input (`{"title": {"beginsWith": "a"}}`).
    private static func condition(_ filter: JSONValue) throws(AppSyncError) -> JSONValue {
        guard let field = filter["fieldName"].stringValue, let name = filter["operator"].stringValue else {
            throw AppSyncError(.filterValidation, "A subscription filter names fieldName and operator.")
        }
        let value = filter["value"]
        switch name {
        case "eq", "ne", "le", "lt", "ge", "gt", "contains", "notContains", "beginsWith", "between", "in", "notIn":
            return [field: [name: value]]
        case "containsAny":
            guard case .array(let values) = value else {
                throw AppSyncError(.filterValidation, "containsAny on \(field) takes a list.")
            }
            return ["or": .array(values.map { [field: ["contains": $0]] })]
        default:
            throw AppSyncError(.filterValidation, "The subscription filter operator '\(name)' on \(field) is not one AppSync has (eq, ne, le, lt, ge, gt, contains, notContains, beginsWith, in, notIn, between, containsAny).")
        }
    }
}
