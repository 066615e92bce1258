import DeltaSyncModelSchema
import Foundation

/// `API_KEY`: `x-api-key` must be one of the API's keys, not expired.
public struct APIKeyAuthenticator: Authenticator {
    public let keys: [APIKey]
    let clock: @Sendable () -> Date

    public init(keys: [APIKey], clock: @escaping @Sendable () -> Date = { Date() }) {
        self.keys = keys
        self.clock = clock
    }

    public var mode: AuthMode { .apiKey }

    public func authenticate(_ credentials: Credentials) async throws(AuthenticationFailure) -> Identity {
        guard let sent = credentials.apiKey else { throw .missingOrInvalid }
        guard let key = keys.first(where: { $0.value == sent }) else { throw .notAuthorized }
        if let expires = key.expires, clock() >= expires { throw .notAuthorized }
        return .apiKey
    }
}
