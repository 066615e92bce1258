import DeltaSyncAuth
import DeltaSyncCore
import DeltaSyncSchema

/// A schema's `@auth` rules and mode directives, evaluated for a caller as Amplify's generated
/// resolvers and AppSync evaluate them. Built once per schema; ``Caller`` asks it per request.
///
/// Order of evaluation (Amplify's): the mode must be allowed on the field; then static grants
/// (API key and `public`, Lambda and `custom`, IAM roles, `private`, static groups); then
/// dynamic owner and group rules, which restrict the caller to their items.
package struct AuthorizationPolicy: Sendable {
    package let directives: AuthModeDirectives
    private let models: [String: ModelSchema]
    /// Subscription fields to the name of the model whose items they deliver (the model's own
    /// and custom ones).
    private let subscriptions: [String: String]
    /// Per model type: its modes and the fields with modes or rules of their own.
    private let fieldAccess: [String: TypeFieldAccess]

    /// What decides field reads on one model type, worked out once.
    private struct TypeFieldAccess: Sendable {
        var typeModes: [AuthMode]?
        /// The modes each operation's root fields admit (``AuthModeDirectives/rootModes(_:_:)``).
        var rootModes: [ModelOperation: [AuthMode]]
        /// Fields with `@auth` rules of their own, and their rules (usually none).
        var special: [String: [AuthRule]]
        /// Fields with mode directives of their own, which replace the type's.
        var fieldModes: [String: [AuthMode]]
    }
    /// Whether any model has `@auth` rules or any mode directive is written; without either,
    /// every caller the API admits may do everything.
    package let isOpen: Bool
    /// A rule of the embedder's on top of the schema's: a field it denies is denied to every
    /// caller but ``Principal/trusted`` (``ServerConfiguration/fieldAuthorization``).
    let fieldRule: (any FieldAuthorization)?

    /// - Parameter fieldRule: an embedder's own field rule, asked after the schema's.
    package init(schema: AmplifySchema, modes: APIAuthModes, fieldRule: (any FieldAuthorization)? = nil) {
        self.fieldRule = fieldRule
        directives = AuthModeDirectives(modes: modes)
        models = Dictionary(uniqueKeysWithValues: schema.models.map { ($0.name, $0) })
        var subscriptions: [String: String] = [:]
        for model in schema.models {
            for field in [model.operations.onCreate, model.operations.onUpdate, model.operations.onDelete].compactMap({ $0 }) {
                subscriptions[field] = model.name
            }
        }
        // A custom subscription to a model's mutations delivers that model's items: its rules
        // decide who receives which events, as for the model's own subscriptions.
        for custom in schema.customSubscriptions where schema.model(named: custom.returnType) != nil {
            subscriptions[custom.name] = custom.returnType
        }
        self.subscriptions = subscriptions
        let directives = directives
        fieldAccess = Dictionary(uniqueKeysWithValues: schema.models.map { model in
            var special: [String: [AuthRule]] = [:]
            for field in model.fields {
                if let rules = field.authRules { special[field.name] = rules }
            }
            var fieldModes: [String: [AuthMode]] = [:]
            for field in model.fields {
                if let modes = directives.fieldModes(field) { fieldModes[field.name] = modes }
            }
            var rootModes: [ModelOperation: [AuthMode]] = [:]
            for operation in ModelOperation.allCases {
                rootModes[operation] = directives.rootModes(model, operation)
            }
            return (model.name, TypeFieldAccess(
                typeModes: directives.typeModes(model), rootModes: rootModes, special: special, fieldModes: fieldModes))
        })
        isOpen = fieldRule == nil && modes.additionalModes.isEmpty && schema.models.allSatisfy { model in
            model.authRules == nil && model.modeDirectives == nil
                && model.fields.allSatisfy { $0.authRules == nil && $0.modeDirectives == nil }
        }
    }

    func model(_ name: String) -> ModelSchema? { models[name] }

    /// The model whose items the subscription `field` delivers: its `onCreate`/`onUpdate`/
    /// `onDelete`, or a custom subscription to its mutations.
    func subscribedModel(_ field: String) -> ModelSchema? {
        subscriptions[field].flatMap { models[$0] }
    }

    /// What `identity` may do with `operation` on `model`, the root field's mode included.
    func access(_ model: ModelSchema, _ operation: ModelOperation, for identity: Identity) -> ModelAccess {
        guard directives.admits(fieldAccess[model.name]?.rootModes[operation], identity.mode) else { return .denied }
        guard let rules = model.authRules else { return .granted }
        return Self.access(rules.filter { $0.grants(operation) }, for: identity, fields: model)
    }

    /// What `identity` may read of `model` through a relation (`@hasMany`, `@hasOne`,
    /// `@belongsTo`, `@manyToMany`), as Amplify's relational resolvers decide: the related
    /// model's rules for every read operation together (get, list, sync, listen, search). A
    /// static grant reads every related item; owner and dynamic group rules narrow the
    /// related items to the caller's; nothing else reads none. The relation field's own modes
    /// and rules are the parent type's (``mayRead(_:on:in:by:)``).
    func relatedAccess(_ model: ModelSchema, for identity: Identity) -> ModelAccess {
        guard let rules = model.authRules else {
            return directives.admits(nil, typeModes: fieldAccess[model.name]?.typeModes, identity.mode) ? .granted : .denied
        }
        return Self.access(rules.filter { !$0.operations.isDisjoint(with: ModelOperation.read) }, for: identity, fields: model)
    }

    /// Whether `identity` may call the custom query or mutation `operation`: its mode
    /// directives, else the API's default mode alone (AppSync's rule for fields without them).
    func admits(_ operation: CustomOperation, for identity: Identity) -> Bool {
        directives.admits(operation.modeDirectives, identity.mode)
    }

    /// The first of `fields` (a filter's, a condition's or a sort key condition's) that
    /// `identity` may not read on every item of `model` it reaches, `nil` when it may read them
    /// all. `within` is what the caller's rules already narrow the items to: a field readable
    /// only on the caller's own items may be filtered on where only those are read.
    func unreadableField(_ fields: Set<String>, of model: ModelSchema, for identity: Identity, within: ItemRestriction?) -> String? {
        guard let access = fieldAccess[model.name] else { return nil }
        for field in fields.sorted() {
            if !identity.deniedFields.isEmpty, identity.deniedFields.contains("\(model.name).\(field)") { return field }
            guard directives.admits(access.fieldModes[field], typeModes: access.typeModes, identity.mode) else { return field }
            guard let rules = access.special[field] else { continue }
            let reading = rules.filter { !$0.operations.isDisjoint(with: ModelOperation.read) }
            switch Self.access(reading, for: identity, fields: model) {
            case .granted: continue
            case .denied: return field
            case .restricted(let fieldRestriction):
                guard let within, within.isNarrower(than: fieldRestriction) else { return field }
            }
        }
        return nil
    }

    /// Whether `identity` may read `field` of `item` (a `typeName` model's): the field's modes,
    /// its own `@auth` rules, and a Lambda authorizer's `deniedFields`.
    func mayRead(_ field: String, on typeName: String, in item: Item, by identity: Identity) -> Bool {
        guard let access = fieldAccess[typeName] else { return true }
        if !identity.deniedFields.isEmpty, identity.deniedFields.contains("\(typeName).\(field)") {
            return false
        }
        guard directives.admits(access.fieldModes[field], typeModes: access.typeModes, identity.mode) else { return false }
        guard let rules = access.special[field], let model = models[typeName] else { return true }
        let reading = rules.filter { !$0.operations.isDisjoint(with: ModelOperation.read) }
        switch Self.access(reading, for: identity, fields: model) {
        case .granted: return true
        case .restricted(let restriction): return restriction.admits(item)
        case .denied: return false
        }
    }

    /// Whether anything about `typeName`'s fields can be denied to `identity`, so writers may
    /// skip asking per field when nothing can.
    func mayDenyFields(on typeName: String, to identity: Identity) -> Bool {
        guard let access = fieldAccess[typeName] else { return false }
        return !identity.deniedFields.isEmpty || !access.special.isEmpty || !access.fieldModes.isEmpty
            || !directives.admits(nil, typeModes: access.typeModes, identity.mode)
    }

    /// The fields of `input` whose own `@auth` rules do not let `identity` do `operation`,
    /// in the model's field order. A delete needs the operation on every field with rules.
    func deniedWrites(
        of model: ModelSchema, _ operation: ModelOperation, input: Item, stored: Item?, by identity: Identity
    ) -> [String] {
        model.fields.compactMap { field -> String? in
            guard let rules = field.authRules, operation == .delete || input[field.name] != nil else { return nil }
            switch Self.access(rules.filter { $0.grants(operation) }, for: identity, fields: model) {
            case .granted: return nil
            case .restricted(let restriction):
                return restriction.admits(stored ?? input) ? nil : field.name
            case .denied: return field.name
            }
        }
    }

    /// The owner conditions a create fills for `identity` when the input leaves the owner out:
    /// from owner rules granting `create`, whether or not another rule grants it statically
    /// (Amplify's `populateOwnerFieldForStaticGroupAuth`).
    func owners(of model: ModelSchema, for identity: Identity) -> [ItemRestriction.Condition] {
        guard identity.hasToken, let rules = model.authRules else { return [] }
        let ownerRules = rules.filter { $0.strategy == .owner && $0.grants(.create) }
        guard case .restricted(let restriction) = Self.access(ownerRules, for: identity, fields: model) else { return [] }
        return restriction.conditions
    }

    /// Static grants first, then the dynamic rules that apply to the caller.
    static func access(_ rules: [AuthRule], for identity: Identity, fields model: ModelSchema) -> ModelAccess {
        var conditions: [ItemRestriction.Condition] = []
        for rule in rules {
            switch (identity.mode, rule.strategy) {
            case (.apiKey, .public) where rule.provider == .apiKey:
                return .granted
            case (.lambda, .custom):
                return .granted
            case (.iam, .public) where rule.provider.mode == .iam:
                // Amplify's `public` IAM rule admits the identity pool's unauthenticated role.
                if identity.iamRole == .unauthenticated { return .granted }
            case (.iam, .private) where rule.provider.mode == .iam:
                if identity.iamRole == .authenticated { return .granted }
            case (.userPools, .private), (.oidc, .private):
                if rule.provider.mode == identity.mode { return .granted }
            case (.userPools, .groups), (.oidc, .groups):
                guard rule.provider.mode == identity.mode else { continue }
                let groups = identity.groups(claim: rule.groupClaim)
                if let field = rule.groupsField {
                    if !groups.isEmpty {
                        let isList = model.field(named: field)?.isList ?? true
                        conditions.append(.init(field: field, values: groups, isList: isList, ownerValue: nil))
                    }
                } else if rule.groups.contains(where: groups.contains) {
                    return .granted
                }
            case (.userPools, .owner), (.oidc, .owner):
                guard rule.provider.mode == identity.mode else { continue }
                let (values, stored) = ownerValues(rule.identityClaim, of: identity)
                guard let stored else { continue }
                let isList = model.field(named: rule.ownerField)?.isList ?? false
                conditions.append(.init(field: rule.ownerField, values: values, isList: isList, ownerValue: stored))
            default:
                continue
            }
        }
        return conditions.isEmpty ? .denied : .restricted(ItemRestriction(conditions: conditions))
    }

    /// The values that name the caller in an owner field, and the one a create stores.
    /// `sub::username` stores `<sub>::<username>` and also matches `sub` or `username` alone
    /// (items written before the composite claim); a claim the token lacks matches nothing.
    static func ownerValues(_ claim: String, of identity: Identity) -> (values: [String], stored: String?) {
        let parts = claim.components(separatedBy: "::")
        if parts.count > 1 {
            let values = parts.map { identity.claimValues($0).first }
            guard values.allSatisfy({ $0 != nil }) else {
                let present = values.compactMap { $0 }
                return (present, nil)
            }
            let composite = values.compactMap { $0 }.joined(separator: "::")
            return ([composite] + values.compactMap { $0 }, composite)
        }
        let values = identity.claimValues(claim)
        return (values, values.first)
    }
}
