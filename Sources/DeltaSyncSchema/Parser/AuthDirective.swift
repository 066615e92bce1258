import GraphQL

/// `@auth(rules: [...])` on a `@model` type or one of its fields, read into ``AuthRule``s with
/// Amplify's defaults and checked as Amplify's transformer checks them.
///
/// Transformer v2's keys are read (`allow`, `provider`, `ownerField`, `identityClaim`,
/// `groupClaim`, `groups`, `groupsField`, `operations`), and v1's where they differ
/// (`identityField` for `identityClaim`, `queries`/`mutations` for `operations`).
enum AuthDirective {
    private static let ruleKeys: Set<String> = [
        "allow", "provider", "ownerField", "identityClaim", "identityField", "groupClaim", "groups",
        "groupsField", "operations", "queries", "mutations",
    ]

    /// The rules of `directive`, a `@auth` written at `place` (`Todo` or `Todo.title`).
    static func rules(_ directive: Directive, place: String) throws(SchemaError) -> [AuthRule] {
        _ = try DirectiveArguments(directive, accepting: ["rules"])  // refuses other arguments
        guard let value = directive.arguments.first(where: { $0.name.value == "rules" })?.value else {
            throw SchemaError(at: directive.loc, "@auth on '\(place)' needs 'rules'")
        }
        let elements = (value as? ListValue)?.values ?? [value]
        var rules: [AuthRule] = []
        for element in elements {
            guard let object = element as? ObjectValue else {
                throw SchemaError(at: element.loc, "each rule of @auth on '\(place)' must be an object such as { allow: owner }")
            }
            rules.append(try rule(ObjectArgument(object: object, argument: "rules", directive: "auth"), place: place))
        }
        return rules
    }

    private static func rule(_ object: ObjectArgument, place: String) throws(SchemaError) -> AuthRule {
        try object.checkKeys(ruleKeys)
        let location = object.object.loc
        guard let allow = try object.string("allow") else {
            throw SchemaError(at: location, "a rule of @auth on '\(place)' needs 'allow' (public, private, owner, groups or custom)")
        }
        guard let strategy = AuthRule.Strategy(rawValue: allow.value) else {
            throw SchemaError(
                at: allow.location,
                "unknown 'allow: \(allow.value)' in @auth on '\(place)'; expected public, private, owner, groups or custom"
            )
        }
        var rule = AuthRule(strategy: strategy)
        if let provider = try object.string("provider") {
            guard let parsed = AuthRule.Provider(rawValue: provider.value) else {
                throw SchemaError(
                    at: provider.location,
                    "unknown 'provider: \(provider.value)' in @auth on '\(place)'; expected one of "
                        + AuthRule.Provider.allCases.map(\.rawValue).joined(separator: ", ")
                )
            }
            guard allowedProviders(strategy).contains(parsed) else {
                throw SchemaError(
                    at: provider.location,
                    "@auth on '\(place)': '\(strategy.rawValue)' rules take provider "
                        + allowedProviders(strategy).map(\.rawValue).joined(separator: " or ")
                        + ", not '\(parsed.rawValue)'"
                )
            }
            rule.provider = parsed
        }
        rule.operations = try operations(object, place: place)
        if let ownerField = try object.string("ownerField") {
            try only(.owner, strategy, key: "ownerField", at: ownerField.location, place: place)
            rule.ownerField = ownerField.value
        }
        let identityClaim = try object.string("identityClaim")
        let identityField = try object.string("identityField")
        if let claim = identityClaim ?? identityField {
            try only(.owner, strategy, key: "identityClaim", at: claim.location, place: place)
            rule.identityClaim = claim.value
        }
        if let claim = try object.string("groupClaim") {
            try only(.groups, strategy, key: "groupClaim", at: claim.location, place: place)
            rule.groupClaim = claim.value
        }
        if let groups = try object.stringList("groups") {
            try only(.groups, strategy, key: "groups", at: location, place: place)
            rule.groups = groups.map(\.value)
        }
        if let field = try object.string("groupsField") {
            try only(.groups, strategy, key: "groupsField", at: field.location, place: place)
            guard rule.groups.isEmpty else {
                throw SchemaError(at: field.location, "@auth on '\(place)': a groups rule takes 'groups' or 'groupsField', not both")
            }
            rule.groupsField = field.value
        }
        if strategy == .groups, rule.groups.isEmpty, rule.groupsField == nil {
            rule.groupsField = "groups"
        }
        return rule
    }

    /// Providers Amplify accepts per strategy.
    static func allowedProviders(_ strategy: AuthRule.Strategy) -> [AuthRule.Provider] {
        switch strategy {
        case .public: return [.apiKey, .iam, .identityPool]
        case .private: return [.userPools, .oidc, .iam, .identityPool]
        case .owner, .groups: return [.userPools, .oidc]
        case .custom: return [.function]
        }
    }

    private static func only(
        _ expected: AuthRule.Strategy, _ strategy: AuthRule.Strategy, key: String, at location: GraphQL.Location?, place: String
    ) throws(SchemaError) {
        guard strategy == expected else {
            throw SchemaError(at: location, "@auth on '\(place)': '\(key)' applies to '\(expected.rawValue)' rules only")
        }
    }

    /// `operations` (v2; `read` = get, list, sync, listen, search), or v1's `queries` and
    /// `mutations`; absent = every operation.
    private static func operations(_ object: ObjectArgument, place: String) throws(SchemaError) -> Set<ModelOperation> {
        let v2 = try object.stringList("operations")
        let queries = try object.stringList("queries") ?? []
        let mutations = try object.stringList("mutations") ?? []
        let v1 = queries + mutations
        if v2 == nil, !object.contains("queries"), !object.contains("mutations") {
            return ModelOperation.all
        }
        var operations: Set<ModelOperation> = []
        var sawRead = false
        for name in (v2 ?? []) + v1 {
            if name.value == "read" {
                sawRead = true
                operations.formUnion(ModelOperation.read)
            } else if let operation = ModelOperation(rawValue: name.value) {
                operations.insert(operation)
            } else {
                throw SchemaError(
                    at: name.location,
                    "unknown operation '\(name.value)' in @auth on '\(place)'; expected create, read, update, delete, "
                        + "get, list, sync, listen or search"
                )
            }
        }
        if sawRead, let part = (v2 ?? []).first(where: { name in
            ModelOperation(rawValue: name.value).map(ModelOperation.read.contains) == true
        }) {
            throw SchemaError(at: part.location, "@auth on '\(place)': 'read' already includes '\(part.value)'; give one or the other")
        }
        // v1's `queries: [get, list]` also let DataStore sync and listen.
        if v2 == nil, operations.contains(.list) || operations.contains(.get) {
            operations.formUnion([.sync, .listen])
        }
        return operations
    }
}
