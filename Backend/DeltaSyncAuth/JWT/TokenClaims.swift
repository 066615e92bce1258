import DeltaSyncCore
import JWTKit

/// A JWT's payload as it was sent: every claim kept (it becomes `$ctx.identity.claims`).
/// Expiry, issuer and client are checked by ``TokenAuthenticator`` with the API's settings.
struct TokenClaims: JWTPayload, Equatable {
    var claims: [String: JSONValue]

    init(_ claims: [String: JSONValue]) {
        self.claims = claims
    }

    init(from decoder: any Decoder) throws {
        claims = try [String: JSONValue](from: decoder)
    }

    func encode(to encoder: any Encoder) throws {
        try claims.encode(to: encoder)
    }

    /// The signature is all jwt-kit checks; the claims are checked by ``TokenAuthenticator``.
    func verify(using algorithm: some JWTAlgorithm) async throws {}

    /// A numeric date claim (`exp`, `iat`, `auth_time`) in epoch seconds.
    func seconds(_ name: String) -> Double? { claims[name]?.doubleValue }
}

/// The parts of a compact JWT read before its signature is checked: the header's `alg` and the
/// payload's `iss`, to pick the mode and refuse what no key should be tried on.
struct UnverifiedToken {
    let algorithm: String
    let issuer: String?

    /// - Throws: ``AuthenticationFailure/unparsableToken`` when `token` is not a JWT.
    init(_ token: String) throws(AuthenticationFailure) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3,
            let header = Self.json(parts[0]), let payload = Self.json(parts[1]),
            let algorithm = header["alg"]?.stringValue
        else { throw .unparsableToken }
        self.algorithm = algorithm
        issuer = payload["iss"]?.stringValue
    }

    /// The asymmetric algorithms AppSync's user pools and OIDC providers sign with: `none` and
    /// HMAC (whose secret could be a published public key) are never accepted.
    var isAsymmetric: Bool {
        ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512"].contains(algorithm)
    }

    private static func json(_ part: Substring) -> [String: JSONValue]? {
        guard let data = Base64URL.decode(part) else { return nil }
        return (try? JSONValue(parsing: String(decoding: data, as: UTF8.self)))?.objectValue
    }
}

import Foundation
