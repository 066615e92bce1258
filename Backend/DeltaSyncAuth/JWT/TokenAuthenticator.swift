import DeltaSyncCore
import DeltaSyncModelSchema
import Foundation
import JWTKit
import NIOConcurrencyHelpers

/// `AMAZON_COGNITO_USER_POOLS` and `OPENID_CONNECT`: a JWT in `Authorization` (ID or access
/// token, `Bearer ` tolerated), its signature checked by jwt-kit against the provider's keys,
/// then its issuer, expiry (with ``TokenVerification/leeway``) and client id.
///
/// Verified tokens are remembered until they expire, so a client sending the same token on
/// every request pays for the signature once.
public final class TokenAuthenticator: Authenticator {
    public let verification: TokenVerification
    private let keys: KeyLoader
    private let clock: @Sendable () -> Date
    private let verified = NIOLockedValueBox([String: (identity: Identity, expires: Double)]())
    /// How many verified tokens are remembered; the memory is emptied when full.
    private static let cacheLimit = 10_000

    /// - Parameter keys: the provider's public keys (``JWKSSource``).
    public convenience init(verification: TokenVerification, keys: JWTKeyCollection, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.init(verification: verification, loadingKeys: { keys }, clock: clock)
    }

    /// - Parameter loadingKeys: loads the provider's keys on first use (once; a failure is
    ///   tried again on the next request).
    public init(
        verification: TokenVerification, loadingKeys: @escaping @Sendable () async throws -> JWTKeyCollection,
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.verification = verification
        keys = KeyLoader(load: loadingKeys)
        self.clock = clock
    }

    /// The provider's keys, loading them now if they were not yet; throws what loading threw.
    public func loadKeys() async throws { _ = try await keys.get() }

    public var mode: AuthMode { verification.mode }

    public func authenticate(_ credentials: Credentials) async throws(AuthenticationFailure) -> Identity {
        guard let token = credentials.authorization else { throw .missingOrInvalid }
        return try await authenticate(token: token)
    }

    /// The caller of a token this authenticator verified before, if it is still valid; `nil`
    /// otherwise (never verified, or expired).
    func remembered(_ token: String) -> Identity? {
        guard let known = verified.withLockedValue({ $0[token] }),
            clock().timeIntervalSince1970 <= known.expires + verification.leeway
        else { return nil }
        return known.identity
    }

    /// The caller a token names, or AppSync's 401.
    public func authenticate(token: String) async throws(AuthenticationFailure) -> Identity {
        // An expired token is verified again below, which refuses it as expired.
        if let identity = remembered(token) { return identity }
        let now = clock().timeIntervalSince1970
        let unverified = try UnverifiedToken(token)
        guard unverified.isAsymmetric, verification.accepts(issuer: unverified.issuer) else { throw .missingOrInvalid }
        let claims: TokenClaims
        do {
            claims = try await keys.get().verify(token, as: TokenClaims.self)
        } catch where keys.reloadIfStale() {
            // The provider may have rotated its keys (jwt-kit tries its default key for a `kid` it
            // does not know): read them again, at most once a minute, and retry.
            do {
                claims = try await keys.get().verify(token, as: TokenClaims.self)
            } catch {
                throw .missingOrInvalid
            }
        } catch {
            throw .missingOrInvalid
        }
        guard let expires = claims.seconds("exp") else { throw .missingOrInvalid }
        guard now <= expires + verification.leeway else { throw .expiredToken }
        try check(claims, now: now)
        let identity = Identity(mode: verification.mode, claims: claims.claims)
        verified.withLockedValue { cache in
            if cache.count >= Self.cacheLimit { cache.removeAll(keepingCapacity: true) }
            cache[token] = (identity, expires)
        }
        return identity
    }

    private func check(_ claims: TokenClaims, now: Double) throws(AuthenticationFailure) {
        if let use = claims.claims["token_use"]?.stringValue, use != "id", use != "access" { throw .missingOrInvalid }
        if let pattern = verification.clientIDPattern {
            let clients = Self.clientIDs(claims)
            guard clients.contains(where: { $0.range(of: pattern, options: .regularExpression) != nil }) else {
                throw .missingOrInvalid
            }
        }
        if let ttl = verification.issuedAtTTL {
            guard let issued = claims.seconds("iat"), now <= issued + ttl + verification.leeway else { throw .expiredToken }
        }
        if let ttl = verification.authTimeTTL {
            guard let authenticated = claims.seconds("auth_time"), now <= authenticated + ttl + verification.leeway else {
                throw .expiredToken
            }
        }
    }

    /// `aud` (ID tokens; a string or a list), `client_id` (access tokens) and `azp`.
    private static func clientIDs(_ claims: TokenClaims) -> [String] {
        var ids: [String] = []
        switch claims.claims["aud"] {
        case .string(let id)?: ids.append(id)
        case .array(let list)?: ids += list.compactMap(\.stringValue)
        default: break
        }
        ids += ["client_id", "azp"].compactMap { claims.claims[$0]?.stringValue }
        return ids
    }
}

/// Loads a key collection on first use, and again when a token does not verify (at most once a
/// minute: forged tokens must not make every request fetch the keys).
private final class KeyLoader: Sendable {
    private let load: @Sendable () async throws -> JWTKeyCollection
    private let loaded = NIOLockedValueBox<Task<JWTKeyCollection, any Error>?>(nil)
    private let lastReload = NIOLockedValueBox<ContinuousClock.Instant?>(nil)

    /// Forgets the keys so the next ``get()`` loads them again; `false` when they were
    /// reloaded less than a minute ago.
    func reloadIfStale() -> Bool {
        let now = ContinuousClock.now
        let allowed = lastReload.withLockedValue { last -> Bool in
            if let last, now - last < .seconds(60) { return false }
            last = now
            return true
        }
        if allowed { loaded.withLockedValue { $0 = nil } }
        return allowed
    }

    init(load: @escaping @Sendable () async throws -> JWTKeyCollection) {
        self.load = load
    }

    func get() async throws -> JWTKeyCollection {
        let task = loaded.withLockedValue { task in
            if let task { return task }
            let load = self.load
            let started = Task { try await load() }
            task = started
            return started
        }
        do {
            return try await task.value
        } catch {
            loaded.withLockedValue { if $0 == task { $0 = nil } }
            throw error
        }
    }
}
