import NIOCore

/// Cuts a pipe's bytes into text lines for ``FunctionProcess``.
///
/// Lines longer than `maxLength` are cut there, so a process that never writes a newline
/// cannot make the server buffer without bound. What is left at end of file counts as a last
/// line, because a crashing process often dies mid-line.
final class LineSplitter: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let maxLength: Int
    private let onLine: @Sendable (String) -> Void
    private let onClose: @Sendable () -> Void
    private var pending: ByteBuffer?
    private var closed = false

    init(maxLength: Int, onLine: @escaping @Sendable (String) -> Void, onClose: @escaping @Sendable () -> Void) {
        self.maxLength = maxLength
        self.onLine = onLine
        self.onClose = onClose
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var incoming = unwrapInboundIn(data)
        if pending == nil {
            pending = incoming
        } else {
            pending!.writeBuffer(&incoming)
        }
        emitCompleteLines()
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        // A read error ends the stream just as end of file does.
        context.close(promise: nil)
    }

    private func emitCompleteLines() {
        guard var buffer = pending else { return }
        while true {
            let view = buffer.readableBytesView
            if let newline = view.firstIndex(of: UInt8(ascii: "\n")) {
                let length = newline - view.startIndex
                let bytes = buffer.readSlice(length: length)!
                buffer.moveReaderIndex(forwardBy: 1)
                emit(bytes)
            } else if buffer.readableBytes > maxLength {
                emit(buffer.readSlice(length: maxLength)!)
            } else {
                break
            }
        }
        buffer.discardReadBytes()
        pending = buffer
    }

    private func emit(_ bytes: ByteBuffer) {
        var text = String(buffer: bytes)
        if text.hasSuffix("\r") { text.removeLast() }
        onLine(text)
    }

    private func finish() {
        guard !closed else { return }
        closed = true
        if let rest = pending, rest.readableBytes > 0 { emit(rest) }
        pending = nil
        onClose()
    }
}
