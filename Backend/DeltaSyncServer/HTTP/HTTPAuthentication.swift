import DeltaSyncAuth
import DeltaSyncGraphQL
import HTTPTypes
import Hummingbird

/// Authenticates an HTTP request with the API's ``RequestAuthentication`` and names its
/// ``Caller``; a refused credential is AppSync's 401 (`UnauthorizedException`).
struct HTTPAuthentication: Sendable {
    static let apiKeyHeader = HTTPField.Name("x-api-key")!

    let authentication: RequestAuthentication
    /// The schema's rules; `nil` when it has none (the caller is then not needed).
    let policy: AuthorizationPolicy?

    /// The caller of `request`, whose `body` was signed (SigV4).
    func caller(_ request: Request, body: [UInt8] = []) async throws(HTTPErrorResponse) -> Caller? {
        try await identify(request, body: body).caller
    }

    /// Who sent `request`, and their ``Caller`` when the schema has rules.
    func identify(_ request: Request, body: [UInt8] = []) async throws(HTTPErrorResponse) -> (identity: Identity, caller: Caller?) {
        var headers: [String: String] = [:]
        for field in request.headers { headers[field.name.canonicalName] = field.value }
        // HTTP/1's Host is the request's authority here; SigV4 signs it as `host`.
        if let authority = request.head.authority { headers["host"] = authority }
        let credentials = Credentials(
            headers: headers, method: request.method.rawValue, path: request.uri.path, query: request.uri.query ?? "", body: body)
        let identity: Identity
        do {
            identity = try await authentication.authenticate(credentials)
        } catch {
            throw .unauthorized(error.message)
        }
        return (identity, policy.map { Caller(identity: identity, policy: $0) })
    }
}
