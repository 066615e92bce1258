import DeltaSyncCore
import DeltaSyncModelSchema
import Foundation
import JWTKit
import NIOConcurrencyHelpers

/// `AMAZON_COGNITO_USER_POOLS` and `OPENID_CONNECT`: a JWT in `Authorization` (ID or access
/// token, `Bearer ` tolerated), its signature checked by jwt-kit against the provider's keys,
/// then its issuer, expiry and not-before time (with ``TokenVerification/leeway``) and client id.
///
/// Verified tokens are remembered until the first of their own limits (`exp`, and with OIDC's
/// TTLs `iat + iatTTL`, `auth_time + authTTL`), never longer, so a client sending the same token
/// on every request pays for the signature once. A remembered token is still checked against
/// its `nbf`, by the server's clock, which tests may move.
public final class TokenAuthenticator: Authenticator {
    public let verification: TokenVerification
    private let keys: KeyLoader
    private let clock: @Sendable () -> Date
    private let verified = NIOLockedValueBox(ExpiringCache<String, Remembered>(capacity: TokenAuthenticator.cacheLimit))
    /// How many verified tokens are remembered; the least recently used goes first.
    static let cacheLimit = 10_000

    /// A verified token's caller, and from when it may be used (its `nbf`, in epoch seconds).
    struct Remembered: Sendable {
        let identity: Identity
        let notBefore: Double?
    }

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
        let now = clock()
        guard let known = verified.withLockedValue({ $0.value(for: token, now: now) }) else { return nil }
        if let notBefore = known.notBefore, now.timeIntervalSince1970 + verification.leeway < notBefore { return nil }
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
        let notBefore = claims.seconds("nbf")
        if let notBefore, now + verification.leeway < notBefore { throw .missingOrInvalid }
        let ends = try check(claims, now: now)
        let identity = Identity(mode: verification.mode, claims: claims.claims)
        // Remembered until the earliest limit passes (with the leeway the checks allow): past
        // it, the token is verified again and refused as those checks refuse it.
        let until = Date(timeIntervalSince1970: min(expires, ends) + verification.leeway)
        verified.withLockedValue { $0.insert(Remembered(identity: identity, notBefore: notBefore), for: token, until: until, now: clock()) }
        return identity
    }

    /// Checks the claims besides the signature, `exp` and `nbf`; returns when the token stops
    /// passing them (epoch seconds; `infinity` when nothing else limits it).
    private func check(_ claims: TokenClaims, now: Double) throws(AuthenticationFailure) -> Double {
        var ends = Double.infinity
        if let use = claims.claims["token_use"]?.stringValue, use != "id", use != "access" { throw .missingOrInvalid }
        if let pattern = verification.clientIDPattern {
            let clients = Self.clientIDs(claims)
            guard clients.contains(where: { $0.range(of: pattern, options: .regularExpression) != nil }) else {
                throw .missingOrInvalid
            }
        }
        if let ttl = verification.issuedAtTTL {
            guard let issued = claims.seconds("iat"), now <= issued + ttl + verification.leeway else { throw .expiredToken }
            ends = min(ends, issued + ttl)
        }
        if let ttl = verification.authTimeTTL {
            guard let authenticated = claims.seconds("auth_time"), now <= authenticated + ttl + verification.leeway else {
                throw .expiredToken
            }
            ends = min(ends, authenticated + ttl)
        }
        return ends
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
