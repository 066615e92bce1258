import DeltaSyncCore

/// A request whose credentials AppSync refuses before any resolver runs: HTTP 401 with
/// `errorType: UnauthorizedException` (on a socket, `connection_error`), or for a SigV4
/// signature that does not check out, HTTP 403 with the signing layer's own error types.
/// Clients tell these apart from `Unauthorized` (a GraphQL error for a field the caller may
/// not touch).
public struct AuthenticationFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    /// `UnauthorizedException`, or for SigV4 ``AppSyncErrorType/incompleteSignature``,
    /// ``AppSyncErrorType/invalidSignature`` or ``AppSyncErrorType/unrecognizedClient``.
    public var errorType: AppSyncErrorType
    /// The HTTP status: 401, or 403 for SigV4 refusals.
    public var status: Int

    public init(_ message: String, errorType: AppSyncErrorType = .unauthorized, status: Int = 401) {
        self.message = message
        self.errorType = errorType
        self.status = status
    }

    /// No credential for a mode the API has, an unusable header, or a token whose signature,
    /// issuer or client does not check out.
    public static let missingOrInvalid = AuthenticationFailure("Valid authorization header not provided.")
    /// A credential header (`x-api-key`, `Authorization`, a SigV4 header) sent twice: which one
    /// counts is ambiguous, so neither does. AppSync's wording for an unusable header.
    public static let ambiguousCredentials = missingOrInvalid
    /// A token that is not a JWT.
    public static let unparsableToken = AuthenticationFailure("Unable to parse JWT token.")
    /// An unknown or expired API key, or a Lambda authorizer that said no.
    public static let notAuthorized = AuthenticationFailure("You are not authorized to make this call.")
    /// A JWT past its `exp` (AppSync's wording is not documented; see docs/compatibility.md).
    public static let expiredToken = AuthenticationFailure("Token has expired.")

    /// A SigV4 `Authorization` header missing a part or a required signed header (HTTP 403).
    public static func incompleteSignature(_ message: String) -> AuthenticationFailure {
        AuthenticationFailure(message, errorType: .incompleteSignature, status: 403)
    }

    /// A SigV4 signature that does not match what was received (HTTP 403).
    public static func invalidSignature(_ message: String) -> AuthenticationFailure {
        AuthenticationFailure(message, errorType: .invalidSignature, status: 403)
    }

    /// A SigV4 access key the server was not given (HTTP 403).
    public static let unrecognizedClient = AuthenticationFailure(
        "The access key in the request is not one this server accepts (--iam-credentials).",
        errorType: .unrecognizedClient, status: 403)

    /// As AppSync reports it.
    public var error: AppSyncError { AppSyncError(errorType, message) }

    public var description: String { "\(errorType.rawValue): \(message)" }
}
