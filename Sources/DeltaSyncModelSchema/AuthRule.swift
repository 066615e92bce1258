/// One rule of Amplify's `@auth(rules: [...])` on a model or a field (transformer v2), with
/// Amplify's defaults filled in, so everything downstream reads values instead of directives.
///
/// Rules are OR-ed: a caller may do an operation when any rule for it lets them.
///
/// ```swift
/// // @auth(rules: [{ allow: owner }, { allow: groups, groups: ["Admin"] }])
/// let todo = schema.model(named: "Todo")!
/// todo.authRules?.first?.strategy        // .owner
/// todo.authRules?.first?.ownerField      // "owner"
/// todo.authRules?.first?.identityClaim   // "sub::username"
/// ```
public struct AuthRule: Sendable, Equatable {
    /// Who the rule admits.
    public enum Strategy: String, Sendable, CaseIterable {
        /// Everyone holding the provider's credential (an API key, or IAM's unauthenticated role).
        case `public`
        /// Any signed-in caller of the provider.
        case `private`
        /// The caller whose identity claim is stored in `ownerField`.
        case owner
        /// Members of `groups` (static) or of the groups stored in `groupsField` (dynamic).
        case groups
        /// Callers a Lambda authorizer admitted.
        case custom
    }

    /// How the caller proved who they are.
    public enum Provider: String, Sendable, CaseIterable {
        case apiKey, iam, identityPool, oidc, userPools, function

        /// The API authorization mode that carries this provider's credentials.
        public var mode: AuthMode {
            switch self {
            case .apiKey: return .apiKey
            case .iam, .identityPool: return .iam
            case .oidc: return .oidc
            case .userPools: return .userPools
            case .function: return .lambda
            }
        }
    }

    public var strategy: Strategy
    public var provider: Provider
    /// The operations the rule grants (`read` expanded into its parts).
    public var operations: Set<ModelOperation>
    /// `owner` rules: the field holding the owner (a `String` or `[String]`). Default `owner`.
    public var ownerField: String
    /// `owner` rules: the token claim compared with the owner field. Default `sub::username`:
    /// `<sub>::<username>` is stored, and `sub`, `username` or both match.
    public var identityClaim: String
    /// `groups` rules: the token claim holding the caller's groups. Default `cognito:groups`.
    public var groupClaim: String
    /// Static `groups` rules: the groups admitted.
    public var groups: [String]
    /// Dynamic `groups` rules: the field holding the admitted groups.
    public var groupsField: String?

    public init(
        strategy: Strategy,
        provider: Provider? = nil,
        operations: Set<ModelOperation> = ModelOperation.all,
        ownerField: String = "owner",
        identityClaim: String = "sub::username",
        groupClaim: String = "cognito:groups",
        groups: [String] = [],
        groupsField: String? = nil
    ) {
        self.strategy = strategy
        self.provider = provider ?? Self.defaultProvider(for: strategy)
        self.operations = operations
        self.ownerField = ownerField
        self.identityClaim = identityClaim
        self.groupClaim = groupClaim
        self.groups = groups
        self.groupsField = groupsField
    }

    /// Amplify's provider when a rule names none.
    public static func defaultProvider(for strategy: Strategy) -> Provider {
        switch strategy {
        case .public: return .apiKey
        case .private, .owner, .groups: return .userPools
        case .custom: return .function
        }
    }

    /// `true` for the rules whose outcome depends on the item (owner and dynamic groups).
    public var isDynamic: Bool {
        strategy == .owner || (strategy == .groups && groupsField != nil)
    }

    public func grants(_ operation: ModelOperation) -> Bool { operations.contains(operation) }
}

/// What a caller does to a model, as `@auth(rules: [{ operations: [...] }])` names it.
public enum ModelOperation: String, Sendable, CaseIterable, Hashable {
    case create, update, delete, get, list, sync, listen, search

    /// Every operation: what a rule without `operations` grants.
    public static let all = Set(allCases)
    /// What `read` stands for.
    public static let read: Set<ModelOperation> = [.get, .list, .sync, .listen, .search]
}

/// An API authorization mode: how a request's caller is authenticated.
public enum AuthMode: String, Sendable, CaseIterable, Hashable {
    case apiKey = "API_KEY"
    case userPools = "AMAZON_COGNITO_USER_POOLS"
    case oidc = "OPENID_CONNECT"
    case lambda = "AWS_LAMBDA"
    case iam = "AWS_IAM"

    /// The AppSync directive that allows the mode on a type or field, e.g. `@aws_api_key`.
    public var directiveName: String {
        switch self {
        case .apiKey: return "aws_api_key"
        case .userPools: return "aws_cognito_user_pools"
        case .oidc: return "aws_oidc"
        case .lambda: return "aws_lambda"
        case .iam: return "aws_iam"
        }
    }

    /// The mode a directive name allows (`aws_auth` is v1's spelling of user pools).
    public init?(directiveName: String) {
        if directiveName == "aws_auth" {
            self = .userPools
            return
        }
        guard let mode = Self.allCases.first(where: { $0.directiveName == directiveName }) else { return nil }
        self = mode
    }
}

/// The modes an API accepts: one default, any number of additional ones.
///
/// A field that names no mode (no `@aws_*` directive on it or its type) accepts the default only.
public struct APIAuthModes: Sendable, Equatable {
    public var defaultMode: AuthMode
    public var additionalModes: [AuthMode]

    public init(defaultMode: AuthMode = .apiKey, additionalModes: [AuthMode] = []) {
        self.defaultMode = defaultMode
        self.additionalModes = additionalModes.filter { $0 != defaultMode }
    }

    /// The default mode first, then the additional ones.
    public var all: [AuthMode] { [defaultMode] + additionalModes }

    public func contains(_ mode: AuthMode) -> Bool { all.contains(mode) }
}

extension ModelSchema {
    /// The nullable `String` arguments Amplify adds to the model's `onCreate`/`onUpdate`/`onDelete`
    /// subscriptions: one per owner rule granting `listen` on a single-valued owner field.
    public var subscriptionOwnerArguments: [String] {
        var names: [String] = []
        for rule in authRules ?? [] where rule.strategy == .owner && rule.grants(.listen) {
            guard field(named: rule.ownerField)?.isList != true, !names.contains(rule.ownerField) else { continue }
            names.append(rule.ownerField)
        }
        return names
    }
}

extension ModelSchema {
    /// Owner fields of rules whose claim is composite (`sub::username`): stored as
    /// `<sub>::<username>`, shown as the username.
    public var compositeOwnerFields: Set<String> {
        Set((authRules ?? []).filter { $0.strategy == .owner && $0.identityClaim.contains("::") }.map(\.ownerField))
    }
}

extension ModelSchema {
    /// The single-valued owner fields of the model's owner rules: the server reads a caller's
    /// items through an index on each.
    public var ownerIndexFields: [String] {
        var names: [String] = []
        for rule in authRules ?? [] where rule.strategy == .owner && !names.contains(rule.ownerField) {
            if field(named: rule.ownerField)?.isList == false { names.append(rule.ownerField) }
        }
        return names
    }
}

extension AuthMode {
    /// The case's name in Swift source (`userPools`), for generated code.
    public var caseName: String {
        switch self {
        case .apiKey: return "apiKey"
        case .userPools: return "userPools"
        case .oidc: return "oidc"
        case .lambda: return "lambda"
        case .iam: return "iam"
        }
    }
}
