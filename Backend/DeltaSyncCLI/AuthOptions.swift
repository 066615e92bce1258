import ArgumentParser
import DeltaSyncServer
import Foundation

/// How `serve` (and `schema print`) authenticate: the API's modes, API keys, token providers
/// and the development issuer's folder. Without `--auth-mode` the modes come from the project's
/// `cli-inputs.json`, else API key plus every mode the schema's `@auth` rules use.
struct AuthOptions: ParsableArguments {
    @Option(
        name: .customLong("auth-mode"),
        help: "The default mode: apiKey, userPools, oidc, lambda or iam (or AppSync's names, API_KEY, ...).")
    var defaultMode: AuthModeArgument?

    @Option(
        name: .customLong("additional-auth-mode"),
        parsing: .upToNextOption,
        help: "Additional modes, comma-separated or repeated (e.g. apiKey,iam).")
    var additionalModes: [String] = []

    @Option(
        name: .customLong("api-key"),
        help: "An x-api-key clients may send, KEY or KEY:EXPIRES (an ISO 8601 time, epoch seconds, or a duration such as 7d); repeat for several. Default: one generated da2-... key.")
    var apiKeys: [String] = []

    @Option(
        name: .customLong("user-pool-id"),
        help: "A Cognito user pool whose tokens are accepted, as REGION_ID (us-east-1_AbC123); needs --jwks.")
    var userPoolID: String?

    @Option(name: .customLong("jwks"), help: "The user pool's keys: a JWKS file or URL (its /.well-known/jwks.json).")
    var jwks: String?

    @Option(name: .customLong("app-client-id-regex"), help: "Accept user pool tokens only of app clients matching this regular expression.")
    var appClientIDRegex: String?

    @Option(name: .customLong("oidc-issuer"), help: "An OpenID Connect issuer whose tokens are accepted (keys found by discovery unless --oidc-jwks).")
    var oidcIssuer: String?

    @Option(name: .customLong("oidc-jwks"), help: "The OIDC provider's keys: a JWKS file or URL.")
    var oidcJWKS: String?

    @Option(name: .customLong("oidc-client-id"), help: "Accept OIDC tokens only of clients matching this regular expression.")
    var oidcClientID: String?

    @Option(
        name: .customLong("lambda-authorizer-url"),
        help: "A URL that receives AppSync's Lambda authorizer payload as a JSON POST and answers {isAuthorized, resolverContext, deniedFields, ttlOverride}.")
    var lambdaAuthorizerURL: String?

    @Option(name: .customLong("lambda-identity-regex"), help: "Refuse Lambda tokens this expression does not match as a whole (AppSync's identityValidationExpression) without calling the authorizer.")
    var lambdaIdentityRegex: String?

    @Option(name: .customLong("lambda-authorizer-ttl"), help: "How long an authorizer's answer is reused for the same token (e.g. 5m, 0s).")
    var lambdaAuthorizerTTL = DurationArgument(.seconds(300))

    @Option(
        name: .customLong("iam-credentials"),
        help: "An access key accepted for AWS_IAM (SigV4): ACCESS_KEY_ID:SECRET[:authenticated|unauthenticated]; repeat for several.")
    var iamCredentials: [String] = []

    @Flag(
        name: .customLong("dev-tokens"), inversion: .prefixedNo,
        help: "Accept tokens of the development issuer (deltasync token), or refuse them (--no-dev-tokens). Default: accepted unless --user-pool-id or --oidc-issuer names a real provider.")
    var developmentTokens: Bool?

    @Option(
        name: .customLong("region"),
        help: "The API's AWS region: SigV4 (iam) signatures must be scoped to it; also AWS_REGION for functions.")
    var region: String = ServerConfiguration().region

    @Option(name: .customLong("data-dir"), help: "The server's data folder (the development issuer's key is kept here).")
    var dataDirectory: String = ServerConfiguration().dataDirectory

    func validate() throws {
        _ = try modes()
        _ = try keys()
        _ = try iam()
        if userPoolID != nil, jwks == nil { throw ValidationError("--user-pool-id needs --jwks FILE|URL with the pool's keys.") }
        if let userPoolID, !userPoolID.contains("_") {
            throw ValidationError("--user-pool-id is REGION_ID, such as us-east-1_AbC123; got '\(userPoolID)'.")
        }
        if let url = lambdaAuthorizerURL, !(url.hasPrefix("http://") || url.hasPrefix("https://")) {
            throw ValidationError("--lambda-authorizer-url must be an http:// or https:// URL.")
        }
        for pattern in [appClientIDRegex, oidcClientID, lambdaIdentityRegex].compactMap({ $0 }) where (try? NSRegularExpression(pattern: pattern)) == nil {
            throw ValidationError("'\(pattern)' is not a regular expression.")
        }
    }

    /// The modes flags give; `nil` when none were given.
    func modes() throws -> APIAuthModes? {
        let additional = try additionalModes.flatMap { $0.split(separator: ",") }.map { name -> AuthMode in
            guard let mode = AuthModeArgument(argument: String(name).trimmingCharacters(in: .whitespaces))?.mode else {
                throw ValidationError("'\(name)' is not an auth mode: use apiKey, userPools, oidc, lambda or iam.")
            }
            return mode
        }
        guard defaultMode != nil || !additional.isEmpty else { return nil }
        return APIAuthModes(defaultMode: defaultMode?.mode ?? .apiKey, additionalModes: additional)
    }

    func iam() throws -> [IAMCredential] {
        try iamCredentials.map { argument in
            do {
                return try IAMCredential(argument: argument)
            } catch {
                throw ValidationError("--iam-credentials: \(error)")
            }
        }
    }

    func keys() throws -> [APIKey] {
        try apiKeys.map { argument in
            do {
                return try APIKey(argument: argument)
            } catch {
                throw ValidationError("--api-key \(argument): \(error)")
            }
        }
    }

    /// Applies the options to a configuration.
    func apply(to configuration: inout ServerConfiguration) throws {
        configuration.authModes = try modes()
        let keys = try keys()
        if let first = keys.first {
            configuration.apiKey = first.value
            configuration.apiKeys = Array(keys.dropFirst())
            if first.expires != nil { configuration.apiKeys.append(first) }
        }
        configuration.developmentTokens = developmentTokens
        configuration.region = region
        configuration.iamCredentials = try iam()
        configuration.dataDirectory = dataDirectory
        if let userPoolID, let jwks {
            let region = userPoolID.split(separator: "_").first.map(String.init) ?? "us-east-1"
            let verification = TokenVerification(
                mode: .userPools, issuer: "https://cognito-idp.\(region).amazonaws.com/\(userPoolID)",
                clientIDPattern: appClientIDRegex)
            configuration.tokenProviders.append(TokenProvider(verification: verification, keys: Self.source(jwks)))
        }
        if let lambdaAuthorizerURL {
            configuration.authenticators.append(LambdaAuthorizer(
                url: lambdaAuthorizerURL, identityValidationExpression: lambdaIdentityRegex,
                defaultTTL: TimeInterval(lambdaAuthorizerTTL.duration.components.seconds)))
        }
        if let oidcIssuer {
            let verification = TokenVerification(mode: .oidc, issuer: oidcIssuer, clientIDPattern: oidcClientID)
            configuration.tokenProviders.append(TokenProvider(
                verification: verification, keys: oidcJWKS.map(Self.source) ?? .issuer(oidcIssuer)))
        }
    }

    private static func source(_ location: String) -> JWKSSource {
        location.hasPrefix("http://") || location.hasPrefix("https://") ? .url(location) : .file(location)
    }
}

/// A mode as users write it: `userPools` or `AMAZON_COGNITO_USER_POOLS`, any case.
struct AuthModeArgument: ExpressibleByArgument {
    let mode: AuthMode

    init?(argument: String) {
        let names: [String: AuthMode] = [
            "apikey": .apiKey, "api_key": .apiKey, "userpools": .userPools, "amazon_cognito_user_pools": .userPools,
            "cognito": .userPools, "oidc": .oidc, "openid_connect": .oidc, "lambda": .lambda, "aws_lambda": .lambda,
            "iam": .iam, "aws_iam": .iam,
        ]
        guard let mode = names[argument.lowercased()] else { return nil }
        self.mode = mode
    }
}
