import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A device's network: a TCP relay on loopback between one client and the server, which a test
/// takes offline (every connection is cut and new ones are refused) and back online, whose
/// connections it drops mid-transfer, or which loses the answer to one request after the server
/// handled it. The client sees what a phone losing its signal sees.
///
/// ```swift
/// let link = try await NetworkLink(to: server.port)
/// // point the app at "http://127.0.0.1:\(link.port)/graphql", then:
/// link.goOffline()
/// link.loseAnswer(toRequestContaining: "updatePost")   // the server applies it; the app never hears
/// link.goOnline()
/// await link.close()
/// ```
public final class NetworkLink: Sendable {
    /// The port clients connect to instead of the server's.
    public let port: Int
    private let listener: any Channel
    private let state = NIOLockedValueBox(State())

    private struct State {
        var online = true
        /// How long each chunk waits before it is relayed, both ways.
        var latency: Duration = .zero
        var connections: [ObjectIdentifier: any Channel] = [:]
        /// A request containing this text has its answer lost.
        var loseAnswerTo: String?
        /// Where new connections go; `nil` while the server is away (they are refused).
        var target: Int?
    }

    /// Starts relaying from a free port on loopback to `targetPort` of `host` (this machine's
    /// by default).
    public init(to targetPort: Int, host targetHost: String = "127.0.0.1") async throws {
        let state = self.state
        state.withLockedValue { $0.target = targetPort }
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { inbound in
                let (online, target) = state.withLockedValue { ($0.online, $0.target) }
                guard online, let target else { return inbound.close() }
                return ClientBootstrap(group: inbound.eventLoop)
                    .connect(host: targetHost, port: target)
                    .flatMap { outbound in
                        let track = { (channel: any Channel) in
                            state.withLockedValue { $0.connections[ObjectIdentifier(channel)] = channel }
                            channel.closeFuture.whenComplete { _ in
                                _ = state.withLockedValue { $0.connections.removeValue(forKey: ObjectIdentifier(channel)) }
                            }
                        }
                        track(inbound)
                        track(outbound)
                        let online: @Sendable () -> Bool = { state.withLockedValue { $0.online } }
                        let latency: @Sendable () -> Duration = { state.withLockedValue { $0.latency } }
                        let answers = Relay(to: inbound, online: online, latency: latency)
                        return outbound.pipeline.addHandler(answers).flatMap {
                            inbound.pipeline.addHandler(Relay(to: outbound, online: online, latency: latency) { request in
                                let lose = state.withLockedValue { state in
                                    guard let marker = state.loseAnswerTo, request.contains(marker) else { return false }
                                    state.loseAnswerTo = nil
                                    return true
                                }
                                if lose { answers.loseNext() }
                            })
                        }
                    }
            }
        listener = try await bootstrap.bind(host: "127.0.0.1", port: 0).get()
        port = listener.localAddress?.port ?? 0
    }

    /// Sends new connections to the server at `port` from now on, or refuses them while `nil`
    /// (a server being restarted: its old port may meanwhile belong to anything else).
    public func retarget(to port: Int?) {
        state.withLockedValue { $0.target = port }
    }

    /// Cuts every connection and refuses new ones.
    public func goOffline() {
        state.withLockedValue { $0.online = false }
        dropConnections()
    }

    public func goOnline() {
        state.withLockedValue { $0.online = true }
    }

    /// Delays every chunk, both ways, by `latency` (a slow network); `.zero` restores it.
    /// Chunks keep their order when the latency changes.
    public func slow(by latency: Duration) {
        state.withLockedValue { $0.latency = latency }
    }

    /// The next request whose bytes contain `marker` reaches the server, but its answer is
    /// lost: the connection is cut when the answer starts.
    public func loseAnswer(toRequestContaining marker: String) {
        state.withLockedValue { $0.loseAnswerTo = marker }
    }

    /// Cuts every open connection; new ones are accepted as before.
    public func dropConnections() {
        let open = state.withLockedValue { Array($0.connections.values) }
        for channel in open { channel.close(promise: nil) }
    }

    /// Cuts every open connection and returns once each is closed, so that no request of the
    /// device's crosses on one of them afterwards (``dropConnections()`` closes them on their
    /// event loops, after it returns).
    public func dropConnectionsAndWait() async {
        let open = state.withLockedValue { Array($0.connections.values) }
        for channel in open { try? await channel.close() }
    }

    /// Goes offline and stops listening.
    public func close() async {
        goOffline()
        try? await listener.close()
    }
}

/// Writes what one side reads to the other, and closes the other side when this one closes.
private final class Relay: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer

    private let partner: any Channel
    /// Sees each chunk before it is relayed.
    private let inspect: @Sendable (String) -> Void
    /// Set from the other direction's event loop: cut instead of relaying the next chunk.
    private let losing = NIOLockedValueBox(false)
    /// Whether the link is up. A chunk read once it went down is lost with its connection:
    /// `goOffline()` closes connections on their event loops, after it returns, and nothing
    /// may cross in between.
    private let online: @Sendable () -> Bool
    private let latency: @Sendable () -> Duration
    /// When the last delayed chunk goes: none goes before it (on the channel's event loop only).
    private var lastRelease = NIODeadline.uptimeNanoseconds(0)

    init(
        to partner: any Channel, online: @escaping @Sendable () -> Bool, latency: @escaping @Sendable () -> Duration,
        inspect: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.partner = partner
        self.online = online
        self.latency = latency
        self.inspect = inspect
    }

    func loseNext() {
        losing.withLockedValue { $0 = true }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let bytes = unwrapInboundIn(data)
        if losing.withLockedValue({ $0 }) || !online() {
            context.close(promise: nil)
            partner.close(promise: nil)
            return
        }
        inspect(String(buffer: bytes))
        let delay = latency()
        let now = NIODeadline.now()
        guard delay > .zero || lastRelease > now else {
            partner.writeAndFlush(bytes, promise: nil)
            return
        }
        let release = max(now + .nanoseconds(Int64(delay.components.seconds) * 1_000_000_000 + delay.components.attoseconds / 1_000_000_000), lastRelease)
        lastRelease = release
        let partner = partner
        context.eventLoop.scheduleTask(deadline: release) { partner.writeAndFlush(bytes, promise: nil) }
    }

    func channelInactive(context: ChannelHandlerContext) {
        partner.close(promise: nil)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
