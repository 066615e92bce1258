import NIOCore
import NIOWebSocket

/// Closes a WebSocket whose client sends an unmasked frame, as RFC 6455 5.1 requires (close
/// code 1002). NIO's frame decoder accepts both; masking is what keeps a browser's frames from
/// being read as requests by proxies on the way, so a client that skips it is refused.
final class ClientFrameMasking: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private var failed = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !failed else { return }
        guard unwrapInboundIn(data).maskKey != nil else {
            failed = true
            var code = context.channel.allocator.buffer(capacity: 2)
            code.write(webSocketErrorCode: .protocolError)
            let close = WebSocketFrame(fin: true, opcode: .connectionClose, data: code)
            context.writeAndFlush(wrapOutboundOut(close)).assumeIsolated().whenComplete { _ in
                context.close(promise: nil)
            }
            return
        }
        context.fireChannelRead(data)
    }
}
