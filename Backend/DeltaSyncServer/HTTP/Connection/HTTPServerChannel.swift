import DeltaSyncRealtime
import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import NIOSSL
import NIOWebSocket

/// The server's child channel: HTTP/1 with the realtime WebSocket upgrade, the connection limit
/// applied at accept and a ``RequestGate`` behind the HTTP decoder.
///
/// HTTP requests are served as Hummingbird's HTTP/1 channel serves them. An upgraded
/// connection is handed to its ``RealtimeSocket`` in the pipeline and this channel's task ends:
/// the socket is served on its event loop, with no task kept per idle connection (what
/// HummingbirdWebSocket's upgrade channel would keep is most of an idle connection's memory).
struct HTTPServerChannel: HTTPChannelHandler {
    enum UpgradeResult: Sendable {
        case notUpgraded(NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>)
        /// An upgrade was asked for and refused (`.dontUpgrade`): answered 400.
        case failedUpgrade(NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>)
        /// Served by its ``RealtimeSocket`` from here on.
        case webSocket
    }

    struct Value: ServerChildChannelValue {
        let upgradeResult: EventLoopFuture<UpgradeResult>
        let channel: any Channel
    }

    let responder: HTTPChannelHandler.Responder
    let configuration: ConnectionConfiguration
    let maxBodyBytes: Int
    /// The largest WebSocket frame a client may send.
    let maxFrameSize: Int
    let registry: ConnectionRegistry
    let shouldUpgrade: @Sendable (HTTPRequest, any Channel, Logger) throws -> ShouldUpgradeResult<RealtimeSocket>

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        guard registry.admit(channel) else {
            logger.debug("connection refused: every slot is busy", metadata: ["limit": "\(registry.capacity)"])
            channel.close(promise: nil)
            return channel.eventLoop.makeFailedFuture(ChannelError.inputClosed)
        }
        return channel.eventLoop.makeCompletedFuture {
            let negotiated = try channel.pipeline.syncOperations.configureUpgradableHTTPServerPipeline(
                configuration: pipelineConfiguration(channel: channel, logger: logger))
            try addGate(to: channel)
            return Value(upgradeResult: negotiated, channel: channel)
        }
    }

    /// HTTP/1 as Hummingbird's channel sets it up, with the realtime WebSocket upgrader.
    private func pipelineConfiguration(channel: any Channel, logger: Logger) -> NIOUpgradableHTTPServerPipelineConfiguration<
        UpgradeResult
    > {
        let upgradeAttempted = NIOLoopBoundBox(false, eventLoop: channel.eventLoop)
        // The socket `shouldUpgrade` made, for the pipeline once the 101 is out.
        let upgrading = NIOLoopBoundBox<RealtimeSocket?>(nil, eventLoop: channel.eventLoop)
        let shouldUpgrade = shouldUpgrade
        let upgrader = NIOTypedWebSocketServerUpgrader<UpgradeResult>(
            maxFrameSize: maxFrameSize,
            shouldUpgrade: { (channel: any Channel, head: HTTPRequestHead) -> EventLoopFuture<HTTPHeaders?> in
                upgradeAttempted.value = true
                return channel.eventLoop.makeCompletedFuture {
                    switch try shouldUpgrade(try HTTPRequest(head, secure: false, splitCookie: false), channel, logger) {
                    case .dontUpgrade:
                        return nil
                    case .upgrade(let headers, let socket):
                        upgrading.value = socket
                        return HTTPHeaders(headers)
                    }
                }
            },
            upgradePipelineHandler: { (channel: any Channel, _: HTTPRequestHead) -> EventLoopFuture<UpgradeResult> in
                channel.eventLoop.makeCompletedFuture {
                    guard let socket = upgrading.value else { throw ChannelError.inappropriateOperationForState }
                    upgrading.value = nil
                    try channel.pipeline.syncOperations.addHandler(socket)
                    return .webSocket
                }
            }
        )
        let upgrade = NIOTypedHTTPServerUpgradeConfiguration(
            upgraders: [upgrader],
            notUpgradingCompletionHandler: { (channel: any Channel) -> EventLoopFuture<UpgradeResult> in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    try pipeline.addHandler(HTTP1ToHTTPServerCodec(secure: false))
                    try pipeline.addHandler(HTTPConnectionStateHandler(idleTimeout: nil, logger: logger))
                    let http = try NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>(
                        wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
                    return upgradeAttempted.value ? .failedUpgrade(http) : .notUpgraded(http)
                }
            }
        )
        var configuration = NIOUpgradableHTTPServerPipelineConfiguration<UpgradeResult>(upgradeConfiguration: upgrade)
        configuration.enablePipelining = false  // NIOAsyncChannel pipelines HTTP
        configuration.enableErrorHandling = false  // the gate and Hummingbird answer errors
        configuration.enableResponseHeaderValidation = false  // HTTPTypes validates them
        configuration.decoderConfiguration.maxHeaderFieldSize = self.configuration.maxRequestHeadBytes
        configuration.decoderConfiguration.maxHeaderListSize = self.configuration.maxRequestHeadBytes
        return configuration
    }

    /// The gate goes last (behind the decoder and the upgrade handler, where parser errors
    /// arrive) and its byte counter first (in front of the decoder), behind TLS when there is
    /// TLS: a handshake is not a request.
    private func addGate(to channel: any Channel) throws {
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
        try pipeline.addHandler(gate)
    }

    func handle(value: Value, logger: Logger) async {
        do {
            switch try await value.upgradeResult.get() {
            case .notUpgraded(let http):
                await handleHTTP(asyncChannel: http, logger: logger)
            case .failedUpgrade(let http):
                logger.debug("WebSocket upgrade refused")
                await Self.answerFailedUpgrade(http, logger: logger)
            case .webSocket:
                break
            }
        } catch let error as ChannelError where error == .inputClosed {
            logger.trace("upgrade failed as input was closed")
        } catch {
            logger.debug("upgrade failed", metadata: ["error": "\(error)"])
        }
    }

    /// 400 and the connection closed: the request asked for an upgrade that is not served.
    private static func answerFailedUpgrade(_ http: NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>, logger: Logger) async {
        do {
            try await http.executeThenClose { _, outbound in
                let head = HTTPResponse(status: .badRequest, headerFields: [.connection: "close", .contentLength: "0"])
                try await outbound.write(contentsOf: [.head(head), .end(nil)])
            }
        } catch {
            logger.trace("failed upgrade not answered", metadata: ["error": "\(error)"])
        }
    }
}
