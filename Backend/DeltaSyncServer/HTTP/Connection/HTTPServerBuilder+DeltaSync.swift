import DeltaSyncRealtime
import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOSSL

extension HTTPServerBuilder {
    /// HTTP/1 with the realtime WebSocket upgrade, hardened by ``HTTPServerChannel``, behind
    /// HummingbirdTLS's `TLSChannel` when `tls` is given (`https` and `wss` on the port), or
    /// behind ``TLSSniffingChannel`` with `plainBesideTLS` (both on the port).
    static func deltaSync(
        maxFrameSize: Int, connections: ConnectionConfiguration, maxBodyBytes: Int,
        registry: ConnectionRegistry, tls: TLSConfiguration? = nil, plainBesideTLS: Bool = false,
        shouldUpgrade: @escaping @Sendable (HTTPRequest, any Channel, Logger) throws -> ShouldUpgradeResult<RealtimeSocket>
    ) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            let channel = HTTPServerChannel(
                responder: redirectingUpgrades(responder), configuration: connections, maxBodyBytes: maxBodyBytes,
                maxFrameSize: maxFrameSize, registry: registry, shouldUpgrade: shouldUpgrade)
            // What `HTTPServerBuilder.tls(_:tlsConfiguration:)` builds, without its `throws`
            // at the call site: the configuration was already checked by `TLSSettings`.
            guard let tls else { return channel }
            if plainBesideTLS { return try TLSSniffingChannel(channel, tlsConfiguration: tls) }
            return try TLSChannel(channel, tlsConfiguration: tls)
        }
    }

    /// A WebSocket upgrade asked for on a connection that already served a request cannot be
    /// made (NIO upgrades only a connection's first request): it is answered with a redirect to
    /// the same path and the connection closed, so the client asks again on a new one, as
    /// Hummingbird's WebSocket channel does.
    private static func redirectingUpgrades(_ responder: @escaping HTTPChannelHandler.Responder) -> HTTPChannelHandler.Responder {
        struct RedirectedUpgrade: Error {}
        return { (request: Request, responseWriter: consuming ResponseWriter, channel: any Channel) in
            guard request.headers[.upgrade]?.lowercased() == "websocket" else {
                try await responder(request, responseWriter, channel)
                return
            }
            let path = request.uri.path + (request.uri.query.map { "?\($0)" } ?? "")
            try await responseWriter.writeResponse(
                HTTPResponse(status: .temporaryRedirect, headerFields: [.connection: "close", .location: path]))
            throw RedirectedUpgrade()
        }
    }
}
