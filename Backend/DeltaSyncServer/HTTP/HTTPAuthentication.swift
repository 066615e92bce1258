import DeltaSyncAuth
import DeltaSyncGraphQL
import HTTPTypes
import Hummingbird

/// Authenticates an HTTP request with the API's ``RequestAuthentication`` and names its
/// ``Caller``; a refused credential is AppSync's 401 (`UnauthorizedException`), a SigV4
/// signature that does not check out a 403 (`InvalidSignatureException`, ...).
struct HTTPAuthentication: Sendable {
    static let apiKeyHeader = HTTPField.Name("x-api-key")!

    let authentication: RequestAuthentication
    /// The schema's rules, which the caller is judged by.
    let policy: AuthorizationPolicy

    /// The caller of `request`, whose `body` was signed (SigV4).
    func caller(_ request: Request, body: [UInt8] = []) async throws(HTTPErrorResponse) -> Caller {
        try await identify(request, body: body).caller
    }

    /// Who sent `request`, and their ``Caller``.
    func identify(_ request: Request, body: [UInt8] = []) async throws(HTTPErrorResponse) -> (identity: Identity, caller: Caller) {
        // HTTP/1's first Host is the request's authority here; SigV4 signs it as `host`. A
        // repeated header stays visible as a repeat (RequestHeaders), so two `x-api-key`s are refused.
        let authority = request.head.authority.map { [("host", $0)] } ?? []
        let headers = RequestHeaders(authority + request.headers.map { ($0.name.canonicalName, $0.value) })
        let credentials = Credentials(
            headers: headers, method: request.method.rawValue, path: request.uri.path, query: request.uri.query ?? "", body: body)
        let identity: Identity
        do {
            identity = try await authentication.authenticate(credentials)
        } catch {
            throw HTTPErrorResponse(status: .init(code: error.status), error: error.error)
        }
        return (identity, Caller(.identity(identity), policy: policy))
    }
}
