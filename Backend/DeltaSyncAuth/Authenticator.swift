import DeltaSyncModelSchema

/// One authorization mode's check: credentials in, an ``Identity`` out, or AppSync's 401.
///
/// ``RequestAuthentication`` picks the authenticator for a request's credential; each mode has
/// one implementation (``APIKeyAuthenticator``, ``TokenAuthenticator``, ...), and tests may give
/// their own.
public protocol Authenticator: Sendable {
    /// The mode this authenticator checks.
    var mode: AuthMode { get }
    /// The caller, or ``AuthenticationFailure`` with AppSync's message.
    func authenticate(_ credentials: Credentials) async throws(AuthenticationFailure) -> Identity
}
