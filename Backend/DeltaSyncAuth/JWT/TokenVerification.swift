import DeltaSyncModelSchema
import Foundation

/// How a user pools or OIDC token is checked (AppSync's `UserPoolConfig` and
/// `OpenIDConnectConfig`).
///
/// ```swift
/// var pool = TokenVerification(mode: .userPools, issuer: "https://cognito-idp.us-east-1.amazonaws.com/us-east-1_AbC")
/// pool.clientIDPattern = "^7abc.*"        // appIdClientRegex
/// ```
public struct TokenVerification: Sendable {
    /// `.userPools` or `.oidc`.
    public var mode: AuthMode
    /// The `iss` tokens must carry (a trailing `/` is ignored).
    public var issuer: String
    /// A regular expression the client id (`aud` of ID tokens, `client_id` of access tokens)
    /// must match; `nil` accepts any client (AppSync's `appIdClientRegex` / OIDC `clientId`).
    public var clientIDPattern: String?
    /// How far past `exp` a token is still accepted, for clock skew. Default 60 seconds.
    public var leeway: TimeInterval = 60
    /// OIDC `iatTTL`: the longest a token is accepted after `iat`; `nil` for no limit.
    public var issuedAtTTL: TimeInterval?
    /// OIDC `authTTL`: the longest a token is accepted after `auth_time`; `nil` for no limit.
    public var authTimeTTL: TimeInterval?

    public init(mode: AuthMode, issuer: String, clientIDPattern: String? = nil) {
        self.mode = mode
        self.issuer = issuer
        self.clientIDPattern = clientIDPattern
    }

    /// Whether `issuer` names this provider.
    func accepts(issuer other: String?) -> Bool {
        guard let other else { return false }
        return Self.trimmed(other) == Self.trimmed(issuer)
    }

    private static func trimmed(_ issuer: String) -> String {
        issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer
    }
}

/// A user pool or OIDC provider whose tokens an API accepts: how they are checked and where
/// its keys are.
public struct TokenProvider: Sendable {
    public var verification: TokenVerification
    public var keys: JWKSSource

    public init(verification: TokenVerification, keys: JWKSSource) {
        self.verification = verification
        self.keys = keys
    }
}
