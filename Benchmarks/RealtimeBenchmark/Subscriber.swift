import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// A subscriber connection: connects, starts its subscriptions over the WebSocket pipeline,
/// and once they are all acknowledged leaves the events to its ``EventCounter``.
///
/// Frames are handled on the connection's event loop as they are read: the benchmark client
/// shares the machine's cores with the server, and an async iteration per message would add
/// the client's own task scheduling to every figure.
final class Subscriber: ChannelInboundHandler, Sendable {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let subscriptions: Int
    /// What the upgrade request and every `start` carry: an API key or a token.
    private let authorization: [String: String]
    /// The subscription document, as JSON string content.
    private let query: String
    private let ready: @Sendable () -> Void
    private let counter: EventCounter
    /// Touched only on the channel's event loop.
    nonisolated(unsafe) private var acknowledged = 0

    init(
        subscriptions: Int, authorization: [String: String], query: String, ready: @escaping @Sendable () -> Void,
        counter: EventCounter
    ) {
        self.subscriptions = subscriptions
        self.authorization = authorization
        self.query = query
        self.ready = ready
        self.counter = counter
    }

    /// Connects, upgrades to `graphql-ws` with the API key in the upgrade headers (as Amplify
    /// Swift does), and starts the subscriptions once acknowledged.
    static func connect(
        port: Int, subscriptions: Int, apiKey: String, ready: @escaping @Sendable () -> Void,
        received: @escaping @Sendable (Int, ContinuousClock.Instant) -> Void
    ) async throws -> any Channel {
        try await connect(
            port: port, subscriptions: subscriptions, authorization: ["x-api-key": apiKey],
            query: "subscription { onCreatePost { id title rating _version _lastChangedAt } }", ready: ready, received: received)
    }

    /// ``connect(port:subscriptions:apiKey:ready:received:)`` with any authorization headers
    /// (a user's token) and subscription document.
    static func connect(
        port: Int, subscriptions: Int, authorization: [String: String], query: String, ready: @escaping @Sendable () -> Void,
        received: @escaping @Sendable (Int, ContinuousClock.Instant) -> Void
    ) async throws -> any Channel {
        let counter = EventCounter(received: received)
        let subscriber = Subscriber(
            subscriptions: subscriptions, authorization: authorization, query: query, ready: ready, counter: counter)
        let (channel, upgraded) = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(.tcpOption(.tcp_nodelay), value: 1)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(counter, position: .first)
                    let upgrader = NIOTypedWebSocketClientUpgrader<Bool>(maxFrameSize: 1 << 20) { channel, _ in
                        channel.eventLoop.makeCompletedFuture {
                            try channel.pipeline.syncOperations.addHandler(subscriber)
                            return true
                        }
                    }
                    var headers = HTTPHeaders()
                    headers.add(name: "Host", value: "127.0.0.1:\(port)")
                    headers.add(name: "Sec-WebSocket-Protocol", value: "graphql-ws")
                    for (name, value) in authorization { headers.add(name: name, value: value) }
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
        let message = String(decoding: frame.data.readableBytesView, as: UTF8.self)
        if message.contains("connection_ack") {
            let data = #"{"query":"\#(query)"}"#
            var extensions = ["host": "127.0.0.1"]
            for (name, value) in authorization { extensions[name] = value }
            let headers = extensions.map { #""\#($0.key)":"\#($0.value)""# }.joined(separator: ",")
            let quotedData = data.replacingOccurrences(of: "\"", with: "\\\"")
            for n in 0..<subscriptions {
                send(
                    #"{"id":"\#(n)","type":"start","payload":{"data":"\#(quotedData)","extensions":{"authorization":{\#(headers)}}}}"#,
                    context: context)
            }
            if subscriptions == 0 { startCounting() }
        } else if message.contains("start_ack") {
            acknowledged += 1
            if acknowledged == subscriptions { startCounting() }
        } else if message.contains("error") {
            fatalError("server error: \(message)")
        }
    }

    /// The server sends nothing more until a mutation: the next byte starts a frame.
    private func startCounting() {
        counter.startCounting()
        ready()
    }

    private func send(_ text: String, context: ChannelHandlerContext) {
        context.writeAndFlush(Self.wrapOutboundOut(Self.frame(text)), promise: nil)
    }

    private static func frame(_ text: String) -> WebSocketFrame {
        WebSocketFrame(fin: true, opcode: .text, maskKey: .random(), data: ByteBuffer(string: text))
    }
}
