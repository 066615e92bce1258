import DeltaSyncAuth
import DeltaSyncCore
import Hummingbird

/// `/.well-known/jwks.json` and `/.well-known/openid-configuration` of the development issuer,
/// so tools that verify tokens (or discover an OIDC provider) can use this server's.
struct WellKnownRoutes: Sendable {
    let issuer: DevelopmentIssuerSource

    func add(to router: Router<ServerRequestContext>) {
        router.get(".well-known/jwks.json") { _, _ in
            try await Self.json(issuer.issuer().jwks)
        }
        router.get(".well-known/openid-configuration") { request, _ in
            let host = request.head.authority ?? "127.0.0.1"
            return try await Self.json(issuer.issuer().openIDConfiguration(baseURL: "http://\(host)"))
        }
    }

    private static func json(_ value: JSONValue) -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/json; charset=UTF-8"],
            body: .init(byteBuffer: ByteBuffer(string: value.jsonText)))
    }
}
