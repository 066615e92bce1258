import AsyncHTTPClient
import DeltaSyncCore
import Foundation
import JWTKit
import NIOCore

/// Where a user pool's or OIDC provider's public keys come from: a JWKS file, a JWKS URL, or
/// the issuer's discovery document (`<issuer>/.well-known/openid-configuration`'s `jwks_uri`).
public enum JWKSSource: Sendable, Equatable {
    case file(String)
    case url(String)
    /// Discovery from the issuer, as AppSync does for OIDC.
    case issuer(String)

    /// The keys, read once (at server start).
    public func keys(timeout: TimeAmount = .seconds(10)) async throws -> JWTKeyCollection {
        let text: String
        switch self {
        case .file(let path):
            do {
                text = try String(contentsOfFile: path, encoding: .utf8)
            } catch {
                throw JWKSError("cannot read the JWKS file \(path): \(error.localizedDescription)")
            }
        case .url(let url):
            text = try await Self.fetch(url, timeout: timeout)
        case .issuer(let issuer):
            let base = issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer
            let discovery = try await Self.fetch("\(base)/.well-known/openid-configuration", timeout: timeout)
            guard let jwksURI = (try? JSONValue(parsing: discovery))?["jwks_uri"].stringValue else {
                throw JWKSError("\(base)/.well-known/openid-configuration has no jwks_uri")
            }
            text = try await Self.fetch(jwksURI, timeout: timeout)
        }
        do {
            return try await JWTKeyCollection().add(jwksJSON: text)
        } catch {
            throw JWKSError("\(self) does not hold a JWKS ({\"keys\": [...]}): \(error)")
        }
    }

    private static func fetch(_ url: String, timeout: TimeAmount) async throws -> String {
        let request = HTTPClientRequest(url: url)
        let response: HTTPClientResponse
        do {
            response = try await HTTPClient.shared.execute(request, timeout: timeout)
        } catch {
            throw JWKSError("cannot fetch \(url): \(error)")
        }
        guard response.status == .ok else { throw JWKSError("\(url) answered \(response.status.code)") }
        let body = try await response.body.collect(upTo: 1 << 20)
        return String(buffer: body)
    }
}

/// The keys of a provider cannot be read.
public struct JWKSError: Error, CustomStringConvertible, Sendable {
    public var description: String
    init(_ description: String) { self.description = description }
}
