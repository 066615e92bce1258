import DeltaSyncCore
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

    /// Returns the current token; `refresh` is `true` when the backend refused the last one.
    public typealias TokenProvider = @Sendable (_ refresh: Bool) async throws -> String

    /// The AppSync mode these credentials are for.
    public var mode: AuthMode {
        switch self {
        case .apiKey: return .apiKey
        case .userPools: return .userPools
        case .oidc: return .oidc
        case .lambda: return .lambda
        }
    }

    /// The headers that authenticate a request (and the realtime handshake and every `start`).
    func headers(refresh: Bool = false) async throws(DataStoreError) -> [String: String] {
        switch self {
        case .apiKey(let key):
            return ["x-api-key": key]
        case .userPools(let provider), .oidc(let provider), .lambda(let provider):
            do {
                return ["Authorization": try await provider(refresh)]
            } catch {
                throw .rejected(model: "authorization", errorType: "SignedOut", message: "no token to send: \(error)")
            }
        }
    }

    /// The claims of the current token (read, not verified: the backend verifies it), for the
    /// `owner` argument of owner-scoped subscriptions; empty for API keys, Lambda tokens and
    /// tokens that are not JWTs.
    func claims() async -> [String: JSONValue] {
        guard mode == .userPools || mode == .oidc, let token = try? await headers()["Authorization"] else { return [:] }
        let parts = token.split(separator: ".")
        guard parts.count >= 2 else { return [:] }
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64) else { return [:] }
        return (try? JSONValue(parsing: String(decoding: data, as: UTF8.self)))?.objectValue ?? [:]
    }
}
