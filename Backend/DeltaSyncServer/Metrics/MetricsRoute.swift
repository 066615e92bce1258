import DeltaSyncCore
import DeltaSyncFixture
import DeltaSyncRealtime
import HTTPTypes
import Hummingbird
import NIOCore

/// `GET /metrics`: Prometheus text, for a scraper on this machine or one that knows the token.
///
/// The figures name operations, models and how busy the server is; on a shared server that is
/// more than every caller should see. Without ``ServerConfiguration/metricsToken`` only callers
/// on a loopback address (or in-process) get them, others 403; with one, every caller must send
/// `Authorization: Bearer TOKEN` (Prometheus' `authorization` / `bearer_token` setting), others 401.
struct MetricsRoute: Sendable {
    let metrics: ServerMetrics
    let realtime: RealtimeEndpoint
    let token: String?

    func add(to router: Router<ServerRequestContext>) {
        router.get("metrics") { request, context in
            try authorize(request, from: context.remoteAddress)
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: metrics.exposition(realtime: realtime))))
        }
    }

    private func authorize(_ request: Request, from address: SocketAddress?) throws {
        if let token {
            let given = request.headers[.authorization].flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
            guard AdminKey.matches(given, token) else {
                throw HTTPErrorResponse.unauthorized("/metrics needs Authorization: Bearer with the server's --metrics-token.")
            }
            return
        }
        guard Self.isLoopback(address) else {
            throw HTTPErrorResponse(status: .forbidden, error: AppSyncError(
                "ForbiddenException",
                "/metrics answers callers on this machine only: scrape it from here, or start the server with --metrics-token TOKEN and send Authorization: Bearer TOKEN."))
        }
    }

    /// A loopback peer, or none (a request that never crossed a socket).
    static func isLoopback(_ address: SocketAddress?) -> Bool {
        guard let address else { return true }
        switch address {
        case .v4: return address.ipAddress?.hasPrefix("127.") == true
        case .v6: return address.ipAddress == "::1" || address.ipAddress?.hasPrefix("::ffff:127.") == true
        case .unixDomainSocket: return true
        }
    }
}
