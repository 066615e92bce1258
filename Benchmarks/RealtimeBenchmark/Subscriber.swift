import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// A subscriber connection whose frames are handled on its event loop as they are read, so
/// the time of an event is taken when its frame arrives. The benchmark client shares the
/// machine's cores with the server; an async iteration per message would add the client's
/// own task scheduling to every figure.
///
/// The events of one read from the socket arrived together: they get the time of that read
/// and are counted once per read, so decoding the frames before an event, and taking a lock
/// for each, is not counted as the event's latency (nor slows the server on the shared cores).
final class Subscriber: ChannelInboundHandler, Sendable {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private static let dataPrefix = Array(#"{"type":"data""#.utf8)
    private let subscriptions: Int
    private let apiKey: String
    private let ready: @Sendable () -> Void
    private let received: @Sendable (Int, ContinuousClock.Instant) -> Void
    /// Touched only on the channel's event loop.
    nonisolated(unsafe) private var acknowledged = 0
    /// Events of the current read, and when the read began.
    nonisolated(unsafe) private var pending = 0
    nonisolated(unsafe) private var readAt = ContinuousClock.now

    init(
        subscriptions: Int, apiKey: String, ready: @escaping @Sendable () -> Void,
        received: @escaping @Sendable (Int, ContinuousClock.Instant) -> Void
    ) {
        self.subscriptions = subscriptions
        self.apiKey = apiKey
        self.ready = ready
        self.received = received
    }

    /// Connects, upgrades to `graphql-ws` with the API key in the upgrade headers (as Amplify
    /// Swift does), and starts the subscriptions once acknowledged.
    static func connect(
        port: Int, subscriptions: Int, apiKey: String, ready: @escaping @Sendable () -> Void,
        received: @escaping @Sendable (Int, ContinuousClock.Instant) -> Void
    ) async throws -> any Channel {
        let subscriber = Subscriber(subscriptions: subscriptions, apiKey: apiKey, ready: ready, received: received)
        let (channel, upgraded) = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(.tcpOption(.tcp_nodelay), value: 1)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let upgrader = NIOTypedWebSocketClientUpgrader<Bool>(maxFrameSize: 1 << 20) { channel, _ in
                        channel.eventLoop.makeCompletedFuture {
                            try channel.pipeline.syncOperations.addHandler(subscriber)
                            return true
                        }
                    }
                    var headers = HTTPHeaders()
                    headers.add(name: "Host", value: "127.0.0.1:\(port)")
                    headers.add(name: "Sec-WebSocket-Protocol", value: "graphql-ws")
                    headers.add(name: "x-api-key", value: apiKey)
                    headers.add(name: "Content-Length", value: "0")
                    let upgrade = NIOTypedHTTPClientUpgradeConfiguration(
                        upgradeRequestHead: HTTPRequestHead(version: .http1_1, method: .GET, uri: "/graphql", headers: headers),
                        upgraders: [upgrader],
                        notUpgradingCompletionHandler: { channel in channel.eventLoop.makeSucceededFuture(false) }
                    )
                    let upgraded = try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(
                        configuration: .init(upgradeConfiguration: upgrade))
                    return (channel, upgraded)
                }
            }
        guard try await upgraded.get() else { fatalError("the server refused the WebSocket upgrade") }
        // Only now are the HTTP handlers gone from the pipeline.
        try await channel.writeAndFlush(Self.frame(#"{"type":"connection_init"}"#))
        return channel
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = Self.unwrapInboundIn(data)
        guard frame.opcode == .text else { return }
        let text = frame.data.readableBytesView
        if text.starts(with: Self.dataPrefix) {
            if pending == 0 { readAt = .now }
            pending += 1
            return
        }
        let message = String(decoding: text, as: UTF8.self)
        if message.contains("connection_ack") {
            let query = #"{\"query\":\"subscription { onCreatePost { id title rating _version _lastChangedAt } }\"}"#
            for n in 0..<subscriptions {
                send(
                    #"{"id":"\#(n)","type":"start","payload":{"data":"\#(query)","extensions":{"authorization":{"x-api-key":"\#(apiKey)"}}}}"#,
                    context: context)
            }
            if subscriptions == 0 { ready() }
        } else if message.contains("start_ack") {
            acknowledged += 1
            if acknowledged == subscriptions { ready() }
        } else if message.contains("error") {
            fatalError("server error: \(message)")
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if pending > 0 { received(pending, readAt) }
        pending = 0
        context.fireChannelReadComplete()
    }

    private func send(_ text: String, context: ChannelHandlerContext) {
        context.writeAndFlush(Self.wrapOutboundOut(Self.frame(text)), promise: nil)
    }

    private static func frame(_ text: String) -> WebSocketFrame {
        WebSocketFrame(fin: true, opcode: .text, maskKey: .random(), data: ByteBuffer(string: text))
    }
}
