import DeltaSyncCore
import DeltaSyncModelSchema

/// Which API authorization modes AppSync admits on each type and root field of a schema's
/// AppSync API: what the `@aws_api_key`, `@aws_iam`, `@aws_oidc`, `@aws_cognito_user_pools` and
/// `@aws_lambda` directives Amplify's auth transform writes say.
///
/// The printer writes these directives and the server enforces the same answers, so the two
/// cannot disagree. Amplify's rules (`getServiceDirectives` of its auth transformer):
/// - a model type names every provider of its rules (field rules included): the other modes in
///   Amplify's order (API key, IAM, OIDC, user pools, Lambda), then the default mode last when
///   it is used beside others;
/// - a root field names the providers of the rules granting its operation, in that order, the
///   default mode among them when it is used beside others;
/// - nothing is written when the only mode would be the default (an undirected field admits the
///   default mode, and only it). Field-level rules write no directive on the field: the type's
///   modes admit it and the rules decide.
///
/// ```swift
/// let directives = AuthModeDirectives(modes: APIAuthModes(defaultMode: .userPools, additionalModes: [.apiKey]))
/// directives.rootModes(todo, .get)      // [.apiKey, .userPools] for owner + public read rules
/// directives.admits(nil, .apiKey)       // false: an undirected field admits the default only
/// ```
public struct AuthModeDirectives: Sendable, Equatable {
    public let modes: APIAuthModes

    /// Amplify's order of the directives (its `AUTH_PROVIDER_DIRECTIVE_MAP`).
    static let order: [AuthMode] = [.apiKey, .iam, .oidc, .userPools, .lambda]

    public init(modes: APIAuthModes) {
        self.modes = modes
    }

    /// The modes written on the model's type; `nil` when none. Directives the schema writes on
    /// the type itself come first, then those the rules add.
    public func typeModes(_ model: ModelSchema) -> [AuthMode]? {
        let rules = (model.authRules ?? []) + model.fields.flatMap { $0.authRules ?? [] }
        return Self.joined(model.modeDirectives, written(Set(rules.map(\.provider.mode)), includingDefault: false))
    }

    /// The modes the schema writes on one of the model's fields (`@aws_iam` on a field), which
    /// replace the type's for that field; `nil` when none.
    public func fieldModes(_ field: DeltaSyncModelSchema.Field) -> [AuthMode]? { field.modeDirectives }

    private static func joined(_ first: [AuthMode]?, _ second: [AuthMode]?) -> [AuthMode]? {
        var merged = first ?? []
        for mode in second ?? [] where !merged.contains(mode) { merged.append(mode) }
        return merged.isEmpty ? nil : merged
    }

    /// The modes written on the model's connection type: those of its list, sync and index
    /// queries, whose return type it is.
    public func connectionModes(_ model: ModelSchema) -> [AuthMode]? {
        var merged: [AuthMode] = []
        for modes in [rootModes(model, .list), rootModes(model, .sync)].compactMap({ $0 }) {
            for mode in modes where !merged.contains(mode) { merged.append(mode) }
        }
        return merged.isEmpty ? nil : merged
    }

    /// The modes written on one of the model's root fields, by the operation it performs
    /// (index queries are `.list`, subscriptions `.listen`).
    public func rootModes(_ model: ModelSchema, _ operation: ModelOperation) -> [AuthMode]? {
        guard let modelRules = model.authRules else { return nil }
        let fieldRules = operation == .delete ? [] : model.fields.flatMap { $0.authRules ?? [] }
        let providers = Set((modelRules + fieldRules).filter { $0.grants(operation) }.map(\.provider.mode))
        return written(providers, includingDefault: providers.contains(modes.defaultMode))
    }

    /// The modes written on a non-model type: those of the models that hold it (directly or
    /// inside another non-model), as Amplify copies them, first model first.
    public func nonModelModes(_ name: String, in schema: AmplifySchema) -> [AuthMode]? {
        var merged: [AuthMode] = []
        var seen = false
        for model in schema.models where model.authRules != nil && Self.holds(model.fields, name, schema, visited: []) {
            let rules = (model.authRules ?? []) + model.fields.flatMap { $0.authRules ?? [] }
            let providers = Set(rules.map(\.provider.mode))
            // The first model writes the type's directives; later ones add what they name anew.
            for mode in written(providers, includingDefault: seen) ?? [] where !merged.contains(mode) { merged.append(mode) }
            seen = true
        }
        return merged.isEmpty ? nil : merged
    }

    private static func holds(_ fields: [DeltaSyncModelSchema.Field], _ name: String, _ schema: AmplifySchema, visited: Set<String>) -> Bool {
        for field in fields {
            guard case .nonModel(let type) = field.type, !visited.contains(type) else { continue }
            if type == name { return true }
            if let nested = schema.nonModel(named: type), holds(nested.fields, name, schema, visited: visited.union([type])) {
                return true
            }
        }
        return false
    }

    /// Whether a caller authenticated with `mode` may touch a field whose own modes are
    /// `fieldModes`, on a type whose modes are `typeModes` (AppSync: the field's directives, else
    /// the type's, else the default mode alone).
    public func admits(_ fieldModes: [AuthMode]?, typeModes: [AuthMode]? = nil, _ mode: AuthMode) -> Bool {
        if let named = fieldModes ?? typeModes { return named.contains(mode) }
        return mode == modes.defaultMode
    }

    /// The directives for `modes`, e.g. `@aws_api_key @aws_cognito_user_pools`; empty for `nil`.
    public static func text(_ modes: [AuthMode]?) -> String {
        (modes ?? []).map { "@\($0.directiveName)" }.joined(separator: " ")
    }

    /// Amplify's `getServiceDirectives`: the other modes in order; the default among them when
    /// `includingDefault` and others are used, else last when it is used beside others.
    private func written(_ providers: Set<AuthMode>, includingDefault: Bool) -> [AuthMode]? {
        let defaultMode = modes.defaultMode
        let others = providers.contains { $0 != defaultMode }
        var written = Self.order.filter { mode in
            mode == defaultMode ? others && includingDefault : providers.contains(mode)
        }
        if providers.contains(defaultMode), others, !written.contains(defaultMode) { written.append(defaultMode) }
        return written.isEmpty ? nil : written
    }
}
