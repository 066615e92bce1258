import HummingbirdCore
import Logging
import NIOCore
import NIOSSL

/// A port that answers TLS and plain HTTP alike: each connection's first byte decides. A TLS
/// record starts with 0x16 (a handshake); an HTTP request starts with a method's letter. So
/// `http://` and `https://`, `ws://` and `wss://` all reach the server on one port, which is
/// what Amplify JS v6 needs from a local server: it opens subscriptions at `wss://` whatever
/// scheme its GraphQL endpoint has.
struct TLSSniffingChannel<Base: ServerChildChannel>: ServerChildChannel {
    typealias Value = Base.Value

    let base: Base
    let context: NIOSSLContext

    init(_ base: Base, tlsConfiguration: TLSConfiguration) throws {
        self.base = base
        self.context = try NIOSSLContext(configuration: tlsConfiguration)
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(TLSSniffer(context: context), position: .first)
        }.flatMap {
            base.setup(channel: channel, logger: logger)
        }
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}

/// Reads a connection's first bytes: a TLS handshake gets a TLS handler right behind this one,
/// plain bytes go straight on; either way the sniffer then leaves the pipeline.
final class TLSSniffer: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// The first byte of a TLS record carrying a handshake (RFC 8446 5.1, `ContentType`).
    static let handshakeRecord: UInt8 = 0x16

    private let context: NIOSSLContext

    init(context: NIOSSLContext) {
        self.context = context
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        guard let first = buffer.getInteger(at: buffer.readerIndex, as: UInt8.self) else { return }
        if first == Self.handshakeRecord {
            do {
                try context.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: self.context), position: .after(self))
            } catch {
                context.fireErrorCaught(error)
                context.close(promise: nil)
                return
            }
        }
        context.fireChannelRead(data)
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }
}
