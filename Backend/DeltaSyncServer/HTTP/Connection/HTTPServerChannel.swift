import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOSSL

/// The server's child channel: Hummingbird's HTTP/1 + WebSocket upgrade channel with the
/// connection limit applied at accept and a ``RequestGate`` behind the HTTP decoder.
struct HTTPServerChannel: ServerChildChannel {
    typealias Value = HTTP1WebSocketUpgradeChannel.Value

    let upgradeChannel: HTTP1WebSocketUpgradeChannel
    let configuration: ConnectionConfiguration
    let maxBodyBytes: Int
    let registry: ConnectionRegistry

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        guard registry.admit(channel) else {
            logger.debug("connection refused: every slot is busy", metadata: ["limit": "\(registry.capacity)"])
            channel.close(promise: nil)
            return channel.eventLoop.makeFailedFuture(ChannelError.inputClosed)
        }
        return upgradeChannel.setup(channel: channel, logger: logger).flatMapThrowing { value in
            // The upgrade channel's handlers are in place; the gate goes last (behind the
            // decoder and the upgrade handler, where parser errors arrive) and its byte
            // counter first (in front of the decoder), behind TLS when there is TLS: a
            // handshake is not a request.
            let gate = RequestGate(configuration: configuration, maxBodyBytes: maxBodyBytes, registry: registry)
            let pipeline = channel.pipeline.syncOperations
            if let tls = try? pipeline.handler(type: NIOSSLServerHandler.self) {
                try pipeline.addHandler(gate.arrivals, position: .after(tls))
            } else if let sniffer = try? pipeline.handler(type: TLSSniffer.self) {
                // TLS, when the connection opens with it, goes in right behind the sniffer.
                try pipeline.addHandler(gate.arrivals, position: .after(sniffer))
            } else {
                try pipeline.addHandler(gate.arrivals, position: .first)
            }
            try channel.pipeline.syncOperations.addHandler(gate)
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await upgradeChannel.handle(value: value, logger: logger)
    }
}

extension HTTPServerBuilder {
    /// Hummingbird's HTTP/1 server with WebSocket upgrades, hardened by ``HTTPServerChannel``,
    /// behind HummingbirdTLS's `TLSChannel` when `tls` is given (`https` and `wss` on the port),
    /// or behind ``TLSSniffingChannel`` with `plainBesideTLS` (both on the port).
    static func deltaSync(
        webSocket: WebSocketServerConfiguration, connections: ConnectionConfiguration, maxBodyBytes: Int,
        registry: ConnectionRegistry, tls: TLSConfiguration? = nil, plainBesideTLS: Bool = false,
        shouldUpgrade: @escaping @Sendable (HTTPRequest, any Channel, Logger) throws -> ShouldUpgradeResult<
            WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>
        >
    ) -> HTTPServerBuilder {
        let decoder = HTTP1Channel.Configuration.DecoderConfiguration(
            maxHeaderFieldSize: connections.maxRequestHeadBytes, maxHeaderListSize: connections.maxRequestHeadBytes)
        return HTTPServerBuilder { responder in
            let channel = HTTPServerChannel(
                upgradeChannel: HTTP1WebSocketUpgradeChannel(
                    responder: responder,
                    configuration: .init(http1: .init(httpDecoderConfiguration: decoder), ws: webSocket),
                    shouldUpgrade: shouldUpgrade),
                configuration: connections, maxBodyBytes: maxBodyBytes, registry: registry)
            // What `HTTPServerBuilder.tls(_:tlsConfiguration:)` builds, without its `throws`
            // at the call site: the configuration was already checked by `TLSSettings`.
            guard let tls else { return channel }
            if plainBesideTLS { return try TLSSniffingChannel(channel, tlsConfiguration: tls) }
            return try TLSChannel(channel, tlsConfiguration: tls)
        }
    }
}
