import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A device's network: a TCP relay on loopback between one client and the server, which a test
/// takes offline (every connection is cut and new ones are refused) and back online, or whose
/// connections it drops mid-transfer. The client sees what a phone losing its signal sees.
final class NetworkLink: Sendable {
    let port: Int
    private let listener: any Channel
    private let state = NIOLockedValueBox(State())

    private struct State {
        var online = true
        var connections: [ObjectIdentifier: any Channel] = [:]
    }

    /// Starts relaying from a free port to `targetPort`.
    init(to targetPort: Int) async throws {
        let state = self.state
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { inbound in
                guard state.withLockedValue({ $0.online }) else { return inbound.close() }
                return ClientBootstrap(group: inbound.eventLoop)
                    .connect(host: "127.0.0.1", port: targetPort)
                    .flatMap { outbound in
                        let track = { (channel: any Channel) in
                            state.withLockedValue { $0.connections[ObjectIdentifier(channel)] = channel }
                            channel.closeFuture.whenComplete { _ in
                                _ = state.withLockedValue { $0.connections.removeValue(forKey: ObjectIdentifier(channel)) }
                            }
                        }
                        track(inbound)
                        track(outbound)
                        return outbound.pipeline.addHandler(Relay(to: inbound)).flatMap {
                            inbound.pipeline.addHandler(Relay(to: outbound))
                        }
                    }
            }
        listener = try await bootstrap.bind(host: "127.0.0.1", port: 0).get()
        port = listener.localAddress?.port ?? 0
    }

    /// Cuts every connection and refuses new ones.
    func goOffline() {
        state.withLockedValue { $0.online = false }
        dropConnections()
    }

    func goOnline() {
        state.withLockedValue { $0.online = true }
    }

    /// Cuts every open connection; new ones are accepted as before.
    func dropConnections() {
        let open = state.withLockedValue { Array($0.connections.values) }
        for channel in open { channel.close(promise: nil) }
    }

    func close() async {
        goOffline()
        try? await listener.close()
    }
}

/// Writes what one side reads to the other, and closes the other side when this one closes.
private final class Relay: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let partner: any Channel

    init(to partner: any Channel) {
        self.partner = partner
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        partner.writeAndFlush(unwrapInboundIn(data), promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        partner.close(promise: nil)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
