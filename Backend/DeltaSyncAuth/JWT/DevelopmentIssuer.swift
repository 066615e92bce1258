import Crypto
import CryptoExtras
import DeltaSyncCore
import Foundation
import JWTKit
import NIOConcurrencyHelpers

/// A token issuer that needs no setup: an RS256 key kept in the server's data folder, its
/// public half served at `/.well-known/jwks.json`, and Cognito-shaped tokens signed with it
/// (`deltasync token`). A server accepts its own development tokens for user pools and OIDC.
///
/// ```swift
/// let issuer = try DevelopmentIssuer.load(directory: ".deltasync")
/// let token = try await issuer.token(username: "alice", groups: ["Admin"])
/// ```
public struct DevelopmentIssuer: Sendable {
    /// The `iss` of development tokens: shaped like a user pool's, so clients and rules treat
    /// them as Cognito's.
    public static let issuer = "https://cognito-idp.us-east-1.amazonaws.com/us-east-1_deltasync"
    /// The `aud`/`client_id` of development tokens.
    public static let clientID = "deltasynclocalclient"
    /// The key file's name inside the data folder.
    public static let keyFileName = "dev-issuer-key.pem"
    static let keyID = "deltasync-dev"

    let privateKey: JWTKit.Insecure.RSA.PrivateKey
    /// Signs and verifies development tokens.
    public let keys: JWTKeyCollection

    init(privateKey: JWTKit.Insecure.RSA.PrivateKey) async {
        self.privateKey = privateKey
        keys = await JWTKeyCollection().add(rsa: privateKey, digestAlgorithm: .sha256, kid: JWKIdentifier(string: Self.keyID))
    }

    /// The issuer whose key is `directory/dev-issuer-key.pem`, creating the key (readable by
    /// its owner only) when the file does not exist.
    public static func load(directory: String) async throws -> DevelopmentIssuer {
        let path = (directory as NSString).appendingPathComponent(keyFileName)
        if FileManager.default.fileExists(atPath: path) { return try await read(path) }
        let key = try JWTKit.Insecure.RSA.PrivateKey(backing: _RSA.Signing.PrivateKey(keySize: .bits2048))
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        // Written aside, then linked into place: a server and `deltasync token` (or parallel
        // tests) starting together agree on the first key linked, and never read half a file.
        let aside = path + ".\(UUID().uuidString)"
        guard FileManager.default.createFile(
            atPath: aside, contents: Data(key.pemRepresentation.utf8), attributes: [.posixPermissions: 0o600])
        else {
            throw DevelopmentIssuerError("cannot write the development issuer's key to \(directory)")
        }
        defer { try? FileManager.default.removeItem(atPath: aside) }
        try? FileManager.default.linkItem(atPath: aside, toPath: path)
        return try await read(path)
    }

    private static func read(_ path: String) async throws -> DevelopmentIssuer {
        do {
            let pem = try String(contentsOfFile: path, encoding: .utf8)
            return await DevelopmentIssuer(privateKey: try JWTKit.Insecure.RSA.PrivateKey(pem: pem))
        } catch {
            throw DevelopmentIssuerError("\(path) is not an RSA private key in PEM form; delete it to get a new one")
        }
    }

    /// `{"keys":[{"kty":"RSA","kid":...,"n":...,"e":...}]}`: what `/.well-known/jwks.json` serves.
    public var jwks: JSONValue {
        let (modulus, exponent) = (try? privateKey.publicKey.getKeyPrimitives()) ?? (Data(), Data())
        return [
            "keys": [[
                "kty": "RSA", "kid": .string(Self.keyID), "use": "sig", "alg": "RS256",
                "n": .string(Base64URL.encode(modulus)), "e": .string(Base64URL.encode(exponent)),
            ]],
        ]
    }

    /// The OpenID discovery document of the issuer served by a server at `baseURL`.
    public func openIDConfiguration(baseURL: String) -> JSONValue {
        [
            "issuer": .string(Self.issuer),
            "jwks_uri": .string("\(baseURL)/.well-known/jwks.json"),
            "id_token_signing_alg_values_supported": ["RS256"],
            "response_types_supported": ["token"],
            "subject_types_supported": ["public"],
            "token_endpoint_auth_methods_supported": ["none"],
        ]
    }

    /// A Cognito-shaped ID token: `sub`, `cognito:username`, `cognito:groups` (when given),
    /// `token_use: id`, `iss` of the development user pool, `aud`, `iat`, `exp`; `claims` are
    /// added last and win.
    public func token(
        username: String, sub: String? = nil, groups: [String] = [], claims: [String: JSONValue] = [:],
        lifetime: TimeInterval = 3600, now: Date = Date()
    ) async throws -> String {
        let issued = Int(now.timeIntervalSince1970)
        var payload: [String: JSONValue] = [
            "sub": .string(sub ?? Self.stableSub(username)),
            "cognito:username": .string(username),
            "token_use": "id",
            "iss": .string(Self.issuer),
            "aud": .string(Self.clientID),
            "auth_time": .int(issued),
            "iat": .int(issued),
            "exp": .int(issued + Int(lifetime)),
        ]
        if !groups.isEmpty { payload["cognito:groups"] = .array(groups.map(JSONValue.string)) }
        for (name, value) in claims { payload[name] = value }
        return try await keys.sign(TokenClaims(payload), kid: JWKIdentifier(string: Self.keyID))
    }

    /// A `sub` derived from the username, the same every time, so tokens minted for one user
    /// in separate runs match the owner their items hold.
    static func stableSub(_ username: String) -> String {
        let digest = Array(SHA256.hash(data: Data("deltasync-sub:\(username)".utf8)).prefix(16))
        return UUID(uuid: (
            digest[0], digest[1], digest[2], digest[3], digest[4], digest[5], digest[6], digest[7],
            digest[8], digest[9], digest[10], digest[11], digest[12], digest[13], digest[14], digest[15]
        )).uuidString.lowercased()
    }
}

/// The development issuer's key file cannot be read or written.
public struct DevelopmentIssuerError: Error, CustomStringConvertible, Sendable {
    public var description: String
    init(_ description: String) { self.description = description }
}

/// The development issuer of one data folder, loaded (or created) on first use and shared by
/// the token authenticators and the `/.well-known` routes.
public final class DevelopmentIssuerSource: Sendable {
    public let directory: String
    private let loaded = NIOLockedValueBox<Task<DevelopmentIssuer, any Error>?>(nil)

    public init(directory: String) {
        self.directory = directory
    }

    public func issuer() async throws -> DevelopmentIssuer {
        let directory = directory
        let task = loaded.withLockedValue { task in
            if let task { return task }
            let started = Task { try await DevelopmentIssuer.load(directory: directory) }
            task = started
            return started
        }
        return try await task.value
    }
}
