import DeltaSyncCore

/// A request whose credentials AppSync refuses before any resolver runs: HTTP 401 with
/// `errorType: UnauthorizedException` (on a socket, `connection_error`). Clients tell this
/// apart from `Unauthorized` (a GraphQL error for a field the caller may not touch).
public struct AuthenticationFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    /// No credential for a mode the API has, an unusable header, or a token whose signature,
    /// issuer or client does not check out.
    public static let missingOrInvalid = AuthenticationFailure("Valid authorization header not provided.")
    /// A token that is not a JWT.
    public static let unparsableToken = AuthenticationFailure("Unable to parse JWT token.")
    /// An unknown or expired API key, or a Lambda authorizer that said no.
    public static let notAuthorized = AuthenticationFailure("You are not authorized to make this call.")
    /// A JWT past its `exp` (AppSync's wording is not documented; see docs/compatibility.md).
    public static let expiredToken = AuthenticationFailure("Token has expired.")

    /// As AppSync reports it.
    public var error: AppSyncError { AppSyncError(.unauthorized, message) }

    public var description: String { "UnauthorizedException: \(message)" }
}
