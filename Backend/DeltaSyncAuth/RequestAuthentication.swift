import DeltaSyncModelSchema

/// The one place a request's caller is established, for HTTP requests, realtime handshakes
/// and every realtime `start`: picks the API mode the credential belongs to and asks that
/// mode's ``Authenticator``.
///
/// Which mode a credential belongs to (AppSync does not document it; the Amplify mock's order):
/// `x-api-key` -> API key; `Authorization: AWS4-HMAC-SHA256 ...` -> IAM; a JWT whose `iss`
/// names a configured user pool -> user pools, a configured OIDC issuer -> OIDC; any other
/// `Authorization` -> Lambda. A credential for a mode the API does not have, or none at all,
/// is AppSync's 401 `Valid authorization header not provided.`
///
/// ```swift
/// let authentication = RequestAuthentication(
///     modes: APIAuthModes(defaultMode: .userPools, additionalModes: [.apiKey]),
///     authenticators: [APIKeyAuthenticator(keys: [APIKey("da2-test")]), poolAuthenticator])
/// let caller = try await authentication.authenticate(Credentials(headers: ["x-api-key": "da2-test"]))
/// ```
public struct RequestAuthentication: Sendable {
    public let modes: APIAuthModes
    private let authenticators: [AuthMode: any Authenticator]
    private let tokenAuthenticators: [any Authenticator]

    /// - Parameter authenticators: one per mode of `modes`; more than one for user pools or
    ///   OIDC (several issuers) is allowed.
    public init(modes: APIAuthModes, authenticators: [any Authenticator]) {
        self.modes = modes
        var byMode: [AuthMode: any Authenticator] = [:]
        for authenticator in authenticators where modes.contains(authenticator.mode) && byMode[authenticator.mode] == nil {
            byMode[authenticator.mode] = authenticator
        }
        self.authenticators = byMode
        tokenAuthenticators = authenticators.filter { modes.contains($0.mode) && ($0.mode == .userPools || $0.mode == .oidc) }
    }

    /// The API's modes that have no authenticator: every request in them is refused, a
    /// configuration mistake to report at start.
    public var unconfiguredModes: [AuthMode] { modes.all.filter { authenticators[$0] == nil } }

    /// The caller, or the 401 AppSync answers.
    ///
    /// A credential header sent twice (`x-api-key: wrong`, then `x-api-key: right`) is refused
    /// whatever the values: readers that kept different copies could disagree about who called.
    public func authenticate(_ credentials: Credentials) async throws(AuthenticationFailure) -> Identity {
        guard credentials.repeatedHeaders.isDisjoint(with: RequestHeaders.credentialNames) else { throw .ambiguousCredentials }
        if credentials.apiKey != nil {
            guard let apiKey = authenticators[.apiKey] else { throw .missingOrInvalid }
            return try await apiKey.authenticate(credentials)
        }
        guard let authorization = credentials.authorization else { throw .missingOrInvalid }
        if authorization.hasPrefix("AWS4-HMAC-SHA256") {
            guard let iam = authenticators[.iam] else { throw .missingOrInvalid }
            return try await iam.authenticate(credentials)
        }
        // A token verified before is known without parsing it again.
        for case let tokens as TokenAuthenticator in tokenAuthenticators {
            if let identity = tokens.remembered(authorization) { return identity }
        }
        if let token = try? UnverifiedToken(authorization) {
            for authenticator in tokenAuthenticators {
                guard let tokens = authenticator as? TokenAuthenticator else { continue }
                if tokens.verification.accepts(issuer: token.issuer) {
                    return try await tokens.authenticate(token: authorization)
                }
            }
            // Tests and embedders may give other token authenticators: the first decides.
            if let other = tokenAuthenticators.first(where: { !($0 is TokenAuthenticator) }) {
                return try await other.authenticate(credentials)
            }
        }
        if let lambda = authenticators[.lambda] {
            return try await lambda.authenticate(credentials)
        }
        if (try? UnverifiedToken(authorization)) == nil, modes.contains(.userPools) || modes.contains(.oidc) {
            throw .unparsableToken
        }
        throw .missingOrInvalid
    }
}
