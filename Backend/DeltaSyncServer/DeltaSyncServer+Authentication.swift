import DeltaSyncAuth
import DeltaSyncCore
import Foundation

// Who a request's credentials name, for every mode the API has.
extension DeltaSyncServer {
    /// What configures a mode's checks, for the warning about a mode without them.
    static func howToConfigure(_ mode: AuthMode) -> String {
        switch mode {
        case .apiKey: return "--api-key"
        case .userPools: return "--user-pool-id with --jwks, or leave development tokens on"
        case .oidc: return "--oidc-issuer, or leave development tokens on"
        case .lambda: return "--lambda-authorizer-url"
        case .iam: return "--iam-credentials"
        }
    }

    /// One authenticator per mode: API keys (``apiKey`` and ``ServerConfiguration/apiKeys``),
    /// the configured token providers, the development issuer for user pools and OIDC, and
    /// ``ServerConfiguration/authenticators``.
    static func authentication(
        modes: APIAuthModes, apiKey: String, issuer: DevelopmentIssuerSource?, clock: @escaping @Sendable () -> Date,
        configuration: ServerConfiguration
    ) -> RequestAuthentication {
        var authenticators = configuration.authenticators
        authenticators.append(APIKeyAuthenticator(keys: [APIKey(apiKey)] + configuration.apiKeys, clock: clock))
        for provider in configuration.tokenProviders {
            authenticators.append(TokenAuthenticator(
                verification: provider.verification, loadingKeys: { try await provider.keys.keys() }, clock: clock))
        }
        if !configuration.iamCredentials.isEmpty {
            authenticators.append(SigV4Authenticator(credentials: configuration.iamCredentials, region: configuration.region, clock: clock))
        }
        if let issuer {
            for mode in [AuthMode.userPools, .oidc] {
                var verification = TokenVerification(mode: mode, issuer: DevelopmentIssuer.issuer)
                verification.leeway = 60
                // Beside a real provider, development tokens stand in for its tokens: the same
                // client-id pattern applies (mint them with `--claims '{"aud": "..."}'`).
                verification.clientIDPattern = configuration.tokenProviders.first { $0.verification.mode == mode }?.verification.clientIDPattern
                authenticators.append(TokenAuthenticator(
                    verification: verification, loadingKeys: { try await issuer.issuer().keys }, clock: clock))
            }
        }
        return RequestAuthentication(modes: modes, authenticators: authenticators)
    }
}
