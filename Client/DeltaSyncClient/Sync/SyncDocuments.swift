import DeltaSyncModelSchema

/// The GraphQL documents DataStore sends for one model, as Amplify's generate them: every
/// stored field (non-model objects with all their fields), the sync metadata and `__typename`.
package struct SyncDocuments: Sendable {
    let model: ModelSchema
    /// `{ id title ... _version _deleted _lastChangedAt __typename }`
    let selection: String

    package init(model: ModelSchema, schema: AmplifySchema) {
        self.model = model
        selection = schema.syncSelection(of: model)
    }

    /// `syncXs(filter:limit:nextToken:lastSync:)`; `nil` when the schema turned sync off.
    package var syncQuery: String? {
        model.operations.sync.map { field in
            """
            query Sync\(model.name)($filter: Model\(model.name)FilterInput, $limit: Int, $nextToken: String, $lastSync: AWSTimestamp) {
              \(field)(filter: $filter, limit: $limit, nextToken: $nextToken, lastSync: $lastSync) {
                items { \(selection) } nextToken startedAt
              }
            }
            """
        }
    }

    /// The field name of the mutation for `type`, and its document.
    func mutation(_ type: MutationType) -> (field: String, document: String)? {
        let field: String?
        let input: String
        switch type {
        case .create: (field, input) = (model.operations.create, "Create\(model.name)Input")
        case .update: (field, input) = (model.operations.update, "Update\(model.name)Input")
        case .delete: (field, input) = (model.operations.delete, "Delete\(model.name)Input")
        }
        return field.map { field in
            (field, """
                mutation \(field.prefix(1).uppercased() + field.dropFirst())($input: \(input)!, $condition: Model\(model.name)ConditionInput) {
                  \(field)(input: $input, condition: $condition) { \(selection) }
                }
                """)
        }
    }

    /// The `onCreateX`, `onUpdateX` and `onDeleteX` subscriptions, each with the `filter`
    /// argument AppSync's generated schema gives them, and the `owner` arguments of owner rules.
    var subscriptions: [(field: String, document: String)] {
        let owners = model.subscriptionOwnerArguments
        let parameters = (["$filter: ModelSubscription\(model.name)FilterInput"] + owners.map { "$\($0): String" })
            .joined(separator: ", ")
        let arguments = (["filter: $filter"] + owners.map { "\($0): $\($0)" }).joined(separator: ", ")
        return [model.operations.onCreate, model.operations.onUpdate, model.operations.onDelete].compactMap { $0 }.map { field in
            (field, """
                subscription \(field.prefix(1).uppercased() + field.dropFirst())(\(parameters)) {
                  \(field)(\(arguments)) { \(selection) }
                }
                """)
        }
    }

    /// The `owner` arguments a signed-in user passes, as Amplify does: for each owner rule that
    /// restricts reading, the user's claim (the username for Cognito's `sub::username`), unless
    /// the user is in a static group allowed to read everything.
    func ownerArguments(claims: [String: JSONValue]) -> Item {
        guard !claims.isEmpty, let rules = model.authRules else { return [:] }
        let readGroups = rules.filter { $0.strategy == .groups && $0.groupsField == nil && $0.grants(.listen) }
        let memberOf = Set(Self.values(claims[readGroups.first?.groupClaim ?? "cognito:groups"]))
        if readGroups.contains(where: { !memberOf.isDisjoint(with: $0.groups) }) { return [:] }
        var arguments: Item = [:]
        for rule in rules where rule.strategy == .owner && rule.grants(.listen) && model.subscriptionOwnerArguments.contains(rule.ownerField) {
            let claim = rule.identityClaim == "username" || rule.identityClaim.contains("::")
                ? (claims["username"] ?? claims["cognito:username"]) : claims[rule.identityClaim]
            if let value = claim?.stringValue { arguments[rule.ownerField] = .string(value) }
        }
        return arguments
    }

    private static func values(_ claim: JSONValue?) -> [String] {
        switch claim {
        case .string(let text)?: return [text]
        case .array(let list)?: return list.compactMap(\.stringValue)
        default: return []
        }
    }

    /// `getX` by the model's key, for a mutation whose outcome on the backend is unknown.
    package var getQuery: (field: String, document: String)? {
        model.operations.get.map { field in
            let keys = model.primaryKey.fields.compactMap { name in model.field(named: name).map { (name, $0) } }
            let parameters = keys.map { "$\($0.0): \($0.1.type.graphQLName)!" }.joined(separator: ", ")
            let arguments = keys.map { "\($0.0): $\($0.0)" }.joined(separator: ", ")
            return (field, """
                query \(field.prefix(1).uppercased() + field.dropFirst())(\(parameters)) {
                  \(field)(\(arguments)) { \(selection) }
                }
                """)
        }
    }
}
