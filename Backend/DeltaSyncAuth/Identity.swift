import DeltaSyncCore
import DeltaSyncModelSchema

/// Who made a request, as AppSync's `$ctx.identity` describes them: the mode that
/// authenticated the request and what that mode says about the caller.
///
/// ```swift
/// let alice = Identity(mode: .userPools, claims: ["sub": "a1", "cognito:username": "alice"])
/// alice.username   // "alice"
/// alice.groups(claim: "cognito:groups")   // []
/// ```
public struct Identity: Sendable, Hashable {
    public var mode: AuthMode
    /// The verified token's payload (user pools, OIDC); empty for other modes.
    public var claims: [String: JSONValue]
    /// A Lambda authorizer's `resolverContext`.
    public var resolverContext: [String: JSONValue]
    /// A Lambda authorizer's `deniedFields`, as `Type.field`.
    public var deniedFields: Set<String>
    /// The IAM role a SigV4 caller assumed; `nil` for other modes.
    public var iamRole: IAMRole?

    /// An identity pool role, as Amplify's `public`/`private` IAM rules name them.
    public enum IAMRole: String, Sendable, Hashable {
        case authenticated, unauthenticated
    }

    public init(
        mode: AuthMode, claims: [String: JSONValue] = [:], resolverContext: [String: JSONValue] = [:],
        deniedFields: Set<String> = [], iamRole: IAMRole? = nil
    ) {
        self.mode = mode
        self.claims = claims
        self.resolverContext = resolverContext
        self.deniedFields = deniedFields
        self.iamRole = iamRole
    }

    /// An API key caller (AppSync's `$ctx.identity` is `null` for them).
    public static let apiKey = Identity(mode: .apiKey)

    /// `sub`, when the token has one.
    public var sub: String? { claims["sub"]?.stringValue }

    /// `username` (access tokens) or `cognito:username` (ID tokens), as Amplify's resolvers read it.
    public var username: String? { claims["username"]?.stringValue ?? claims["cognito:username"]?.stringValue }

    /// `true` for the modes that carry a user's token (user pools and OIDC).
    public var hasToken: Bool { mode == .userPools || mode == .oidc }

    /// A claim's values as Amplify's resolvers read them: a list, a JSON-string list, or a bare
    /// string. `username` falls back to `cognito:username`.
    public func claimValues(_ name: String) -> [String] {
        let value = name == "username" ? (claims["username"] ?? claims["cognito:username"]) : claims[name]
        switch value {
        case .string(let text)?:
            if text.hasPrefix("["), case .array(let list)? = try? JSONValue(parsing: text) {
                return list.compactMap(\.stringValue)
            }
            return [text]
        case .array(let list)?:
            return list.compactMap(\.stringValue)
        case .int(let number)?:
            return [String(number)]
        default:
            return []
        }
    }

    /// The caller's groups from `claim` (default `cognito:groups`).
    public func groups(claim: String = "cognito:groups") -> [String] { claimValues(claim) }
}

// The modes come from the schema description, which the client shares; the server names
// them from here.
public typealias AuthMode = DeltaSyncModelSchema.AuthMode
public typealias APIAuthModes = DeltaSyncModelSchema.APIAuthModes
