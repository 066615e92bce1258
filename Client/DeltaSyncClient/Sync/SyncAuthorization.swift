import DeltaSyncCore
import DeltaSyncSigV4
import Foundation

/// How the sync engine authenticates with the backend: AppSync's modes, with the credentials
/// the app supplies.
///
/// Token providers are the app's: they return the signed-in user's current token (a Cognito
/// access or ID token, an OIDC token, or a Lambda authorizer's token). They are asked before
/// each request and realtime connection, and asked again with `refresh: true` after the
/// backend answers 401, once, before the request is retried.
///
/// ```swift
/// let token = "eyJ..."   // the signed-in user's token; in development, `deltasync token --username alice`
/// let endpoint = SyncEndpoint(url: url, authorization: .userPools { refresh in
///     token                // an app asks its sign-in for a fresh one when `refresh` is true
/// })
/// ```
public enum SyncAuthorization: Sendable {
    /// `API_KEY`: the key sent as `x-api-key`.
    case apiKey(String)
    /// `AMAZON_COGNITO_USER_POOLS`: a Cognito token in `Authorization`.
    case userPools(TokenProvider)
    /// `OPENID_CONNECT`: an OIDC token in `Authorization`.
    case oidc(TokenProvider)
    /// `AWS_LAMBDA`: a token for the API's Lambda authorizer in `Authorization`.
    case lambda(TokenProvider)
    /// `AWS_IAM`: requests signed with SigV4 by the credentials the provider returns (an
    /// identity pool's, for instance), for the API's `region`.
    case iam(region: String, credentials: CredentialsProvider)

    /// Returns the current token; `refresh` is `true` when the backend refused the last one.
    public typealias TokenProvider = @Sendable (_ refresh: Bool) async throws -> String
    /// Returns the current AWS credentials; `refresh` is `true` when the backend refused them.
    public typealias CredentialsProvider = @Sendable (_ refresh: Bool) async throws -> AWSCredentials

    /// An access key, with the session token of temporary credentials.
    public struct AWSCredentials: Sendable, Equatable {
        /// The access key id (`AKIA...`, or `ASIA...` for temporary credentials).
        public var accessKeyID: String
        /// The secret the signature is made with; never sent.
        public var secretAccessKey: String
        /// The session token of temporary credentials (an identity pool's); `nil` for an access key.
        public var sessionToken: String?

        /// Credentials to sign with.
        public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
            self.accessKeyID = accessKeyID
            self.secretAccessKey = secretAccessKey
            self.sessionToken = sessionToken
        }
    }

    /// What a request signs: the endpoint's host, the path (`/graphql`, or `/graphql/connect`
    /// for the realtime handshake) and the body.
    struct Signed: Sendable {
        var host: String
        var path: String
        var body: [UInt8]
    }

    /// The AppSync mode these credentials are for.
    public var mode: AuthMode {
        switch self {
        case .apiKey: return .apiKey
        case .userPools: return .userPools
        case .oidc: return .oidc
        case .lambda: return .lambda
        case .iam: return .iam
        }
    }

    /// The headers that authenticate a request (and the realtime handshake and every `start`);
    /// for IAM, every header signed, `host` and `content-type` included.
    func headers(for request: Signed, refresh: Bool = false) async throws(DataStoreError) -> [String: String] {
        switch self {
        case .apiKey(let key):
            return ["x-api-key": key]
        case .userPools(let provider), .oidc(let provider), .lambda(let provider):
            do {
                return ["Authorization": try await provider(refresh)]
            } catch {
                throw .rejected(model: "authorization", errorType: "SignedOut", message: "no token to send: \(error)")
            }
        case .iam(let region, let provider):
            let credentials: AWSCredentials
            do {
                credentials = try await provider(refresh)
            } catch {
                throw .rejected(model: "authorization", errorType: "SignedOut", message: "no AWS credentials to sign with: \(error)")
            }
            let signedHeaders = ["host": request.host, "content-type": "application/json; charset=UTF-8"]
            let signature = SigV4.sign(
                SigV4Request(path: request.path, headers: signedHeaders, body: request.body),
                accessKeyID: credentials.accessKeyID, secretAccessKey: credentials.secretAccessKey,
                sessionToken: credentials.sessionToken, region: region, now: Date())
            return signature.merging(signedHeaders) { signed, _ in signed }
        }
    }

    /// The claims of the current token (read, not verified: the backend verifies it), for the
    /// `owner` argument of owner-scoped subscriptions; empty for API keys, Lambda tokens and
    /// tokens that are not JWTs.
    func claims() async -> [String: JSONValue] {
        guard mode == .userPools || mode == .oidc,
            let token = try? await headers(for: Signed(host: "", path: "", body: []))["Authorization"]
        else { return [:] }
        let parts = token.split(separator: ".")
        guard parts.count >= 2 else { return [:] }
        guard let data = Base64URL.decode(parts[1]) else { return [:] }
        return (try? JSONValue(parsing: String(decoding: data, as: UTF8.self)))?.objectValue ?? [:]
    }
}
