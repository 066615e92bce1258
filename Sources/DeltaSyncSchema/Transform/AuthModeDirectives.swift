import DeltaSyncCore
import DeltaSyncModelSchema

/// Which API authorization modes AppSync admits on each type and root field of a schema's
/// AppSync API: what the `@aws_api_key`, `@aws_cognito_user_pools`, `@aws_oidc`, `@aws_iam` and
/// `@aws_lambda` directives Amplify's auth transform writes say.
///
/// The printer writes these directives and the server enforces the same answers, so the two
/// cannot disagree. Amplify's rules: a model type names every provider its rules use; a root
/// field names the providers of the rules granting its operation; a field-level `@auth` names its
/// own rules' providers. Nothing is written when the only mode named would be the default one
/// (an undirected field already admits the default mode, and only it).
///
/// ```swift
/// let directives = AuthModeDirectives(modes: APIAuthModes(defaultMode: .userPools, additionalModes: [.apiKey]))
/// directives.rootModes(todo, .get)      // [.userPools, .apiKey] for owner + public read rules
/// directives.admits(nil, .apiKey)       // false: an undirected field admits the default only
/// ```
public struct AuthModeDirectives: Sendable, Equatable {
    public let modes: APIAuthModes

    public init(modes: APIAuthModes) {
        self.modes = modes
    }

    /// The modes written on the model's type (and its connection type); `nil` when none.
    public func typeModes(_ model: ModelSchema) -> [AuthMode]? {
        let rules = (model.authRules ?? []) + model.fields.flatMap { $0.authRules ?? [] }
        return written(rules.map(\.provider.mode))
    }

    /// The modes written on a field of a model type: its own `@auth`'s providers, else none.
    public func fieldModes(_ field: DeltaSyncModelSchema.Field) -> [AuthMode]? {
        guard let rules = field.authRules else { return nil }
        return written(rules.map(\.provider.mode))
    }

    /// The modes written on one of the model's root fields, by the operation it performs
    /// (index queries are `.list`, subscriptions `.listen`).
    public func rootModes(_ model: ModelSchema, _ operation: ModelOperation) -> [AuthMode]? {
        guard let rules = model.authRules else { return nil }
        return written(rules.filter { $0.grants(operation) }.map(\.provider.mode))
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

    /// De-duplicated in first-use order; `nil` when empty or only the default mode.
    private func written(_ used: [AuthMode]) -> [AuthMode]? {
        var seen: [AuthMode] = []
        for mode in used where !seen.contains(mode) { seen.append(mode) }
        if seen.isEmpty || seen == [modes.defaultMode] { return nil }
        return seen
    }
}
