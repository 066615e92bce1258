import HTTPTypes
import Hummingbird

/// API-key authorization, the mode DataStore apps use in development: the `x-api-key`
/// header (any case) must equal the server's key.
struct APIKeyAuthenticator: Sendable {
    static let header = HTTPField.Name("x-api-key")!

    let apiKey: String

    func authorize(_ headers: HTTPFields) throws(HTTPErrorResponse) {
        guard let sent = headers[Self.header] else {
            throw .unauthorized("Valid authorization header not provided.")
        }
        guard sent == apiKey else {
            throw .unauthorized("You are not authorized to make this call.")
        }
    }
}
