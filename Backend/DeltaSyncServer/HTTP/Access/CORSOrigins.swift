import DeltaSyncCore
import Foundation
import HTTPTypes
import Hummingbird

/// The web pages whose scripts may call the GraphQL endpoint from a browser (CORS), as
/// ``ServerConfiguration/corsOrigins`` (`--cors-origin`) lists them.
///
/// An entry is an origin (`https://app.example.com`, `http://localhost:3000`), an origin with
/// any port (`http://localhost:*`, which also matches no port), or `*` for every origin. The
/// server's own origin (the console's page) is always allowed. Without a list: pages served
/// from this machine, ``defaults``.
///
/// ```swift
/// let origins = CORSOrigins(["https://app.example.com"])
/// origins.allows("https://app.example.com", ownOrigin: "http://127.0.0.1:20002")  // true
/// origins.allows("https://evil.example", ownOrigin: "http://127.0.0.1:20002")     // false
/// ```
struct CORSOrigins: Sendable {
    /// Local development pages: `localhost`, `127.0.0.1` and `[::1]`, any port, http or https.
    static let defaults = ["localhost", "127.0.0.1", "[::1]"].flatMap { host in
        ["http", "https"].map { "\($0)://\(host):*" }
    }

    private enum Entry: Sendable, Equatable {
        case any
        case origin(String)
        /// `scheme://host`, any port or none.
        case anyPort(String)
    }

    private let entries: [Entry]

    /// - Parameter list: the configured entries; `nil` takes ``defaults``.
    init(_ list: [String]?) {
        entries = (list ?? Self.defaults).compactMap(Self.entry)
    }

    /// Why `text` is not an entry (for `--cors-origin`), or `nil` when it is one.
    static func problem(_ text: String) -> String? {
        entry(text) == nil
            ? "'\(text)' is not an origin: write scheme://host[:port] (https://app.example.com), scheme://host:* for any port, or * for every origin."
            : nil
    }

    private static func entry(_ text: String) -> Entry? {
        let text = text.lowercased()
        if text == "*" { return .any }
        guard let schemeEnd = text.range(of: "://"), ["http", "https"].contains(String(text[..<schemeEnd.lowerBound])) else { return nil }
        let authority = text[schemeEnd.upperBound...]
        guard !authority.isEmpty, !authority.contains("/") else { return nil }
        if authority.hasSuffix(":*") { return .anyPort(String(text.dropLast(2))) }
        return authority.contains("*") ? nil : .origin(text)
    }

    /// Whether a page of `origin` (the request's `Origin` header) may read the answers.
    ///
    /// - Parameter ownOrigin: this server's origin as the request reached it
    ///   (`http://` + its `Host`).
    func allows(_ origin: String, ownOrigin: String) -> Bool {
        let origin = origin.lowercased()
        if origin == ownOrigin.lowercased() { return true }
        return entries.contains { entry in
            switch entry {
            case .any: return true
            case .origin(let allowed): return origin == allowed
            case .anyPort(let base):
                guard origin.hasPrefix(base) else { return false }
                let rest = origin.dropFirst(base.count)
                return rest.isEmpty || (rest.first == ":" && rest.count > 1 && rest.dropFirst().allSatisfy(\.isNumber))
            }
        }
    }
}

/// CORS for the GraphQL endpoint only: an allowed page's preflight gets the headers AppSync
/// clients send, and its requests' answers (refusals too) carry `Access-Control-Allow-Origin`;
/// another page's preflight is refused (403) and its answers carry none, so the browser keeps
/// them from the page. The fixture API (`/admin/`), `/metrics` and the rest get no CORS headers
/// at all: only the console, same-origin, calls them from a browser. The admin key header is
/// never allowed, so no page can send it.
struct GraphQLCORSMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext

    /// The paths AppSync clients call over HTTP.
    static let paths: Set<String> = ["/graphql", "/graphql/realtime"]
    static let allowedHeaders = [
        "content-type", "authorization", "x-api-key", "x-amz-date", "x-amz-security-token", "x-amz-user-agent",
        "x-amz-content-sha256",
    ].joined(separator: ", ")

    let origins: CORSOrigins
    /// `http`, `https` or both (a port answering both): how this server's own origin starts.
    let schemes: [String]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let origin = request.headers[.origin], Self.paths.contains(request.uri.path) else {
            return try await next(request, context)
        }
        let allowed = schemes.contains { origins.allows(origin, ownOrigin: "\($0)://\(request.head.authority ?? "")") }
        if request.method == .options, request.headers[.accessControlRequestMethod] != nil {
            guard allowed else {
                throw HTTPErrorResponse(status: .forbidden, error: AppSyncError(
                    "ForbiddenException",
                    "Pages of \(origin) may not call this API: start the server with --cors-origin \(origin) (or --cors-origin '*' for every page)."))
            }
            var headers = Self.allowing(origin)
            headers[.accessControlAllowHeaders] = Self.allowedHeaders
            headers[.accessControlAllowMethods] = "GET, POST, OPTIONS"
            headers[.accessControlMaxAge] = "600"
            return Response(status: .noContent, headers: headers)
        }
        guard allowed else { return try await next(request, context) }
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            // A refusal (401, 413, ...) the page's client must be able to read as one.
            response = try error.response(from: request, context: context)
        }
        response.headers.append(contentsOf: Self.allowing(origin))
        return response
    }

    private static func allowing(_ origin: String) -> HTTPFields {
        [
            .accessControlAllowOrigin: origin,
            .accessControlExposeHeaders: HTTPErrorResponse.errorTypeHeader.canonicalName,
            .vary: "Origin",
        ]
    }
}
