import HTTPTypes
import Hummingbird

/// `GET /` and `GET /console`: the browser console, a GraphQL explorer and a sync inspector over
/// the fixture API (`/admin/`), as one page compiled into the binary (``ConsolePage``).
///
/// The page asks for no key itself: it reads the API and admin keys from the URL's fragment
/// (`/#apiKey=...&adminKey=...`, which browsers never send) or from its header bar, so serving
/// it needs none. Its Content-Security-Policy allows only this server and the page's own inline
/// script and style: nothing else can run in it or be loaded by it, even from data it shows.
///
/// ```swift
/// let router = Router()
/// ConsoleRoutes().add(to: router)   // GET / and GET /console
/// ```
public struct ConsoleRoutes: Sendable {
    /// The page's bytes, built once: every request answers the same buffer.
    private static let page = ByteBuffer(string: ConsolePage.html)

    public init() {}

    /// The page's Content-Security-Policy: this server, and the page's inline script and style.
    public static let contentSecurityPolicy = [
        "default-src 'self'",
        "script-src 'self' 'unsafe-inline'",
        "style-src 'self' 'unsafe-inline'",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
    ].joined(separator: "; ")

    /// Adds `GET /` and `GET /console` to `router`.
    public func add<Context: RequestContext>(to router: Router<Context>) {
        for path in ["/", "console"] {
            router.get(RouterPath(path)) { _, _ in Self.response() }
        }
    }

    private static func response() -> Response {
        Response(
            status: .ok,
            headers: [
                .contentType: "text/html; charset=utf-8",
                // The page changes with the binary: never answer an old one from a cache.
                .cacheControl: "no-store",
                .contentSecurityPolicy: contentSecurityPolicy,
                HTTPField.Name("x-content-type-options")!: "nosniff",
                HTTPField.Name("referrer-policy")!: "no-referrer",
            ],
            body: .init(byteBuffer: page))
    }
}
