import DeltaSyncGraphQL
import NIOCore
import NIOHTTP1
import NIOWebSocket

/// Stands behind NIO's HTTP/1 decoder on every connection until it becomes a WebSocket, and
/// makes sure every request gets an answer and every connection an end.
///
/// Hummingbird answers parser errors only once a first request has been routed; before that
/// (while the upgrade handler waits for a complete head) an error went nowhere and the socket
/// stayed open. The gate answers them all, checks what the parser lets through but HTTP/1.1
/// refuses, answers `Expect: 100-continue`, and keeps the idle, head and body deadlines.
///
/// Its own responses never overtake an earlier request's: a refusal waits for the responses
/// still owed, then goes out with `Connection: close`.
final class RequestGate: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private enum Deadline {
        case idle, head, body
    }

    private let configuration: ConnectionConfiguration
    private let maxBodyBytes: Int
    private let registry: ConnectionRegistry
    /// Tells the gate when bytes arrive, so the head deadline starts at a request's first byte.
    let arrivals: RequestArrivals

    /// A request's head has been forwarded and its end not yet.
    private var readingRequest = false
    /// Requests forwarded whose response has not ended.
    private var unanswered = 0
    /// A response head has been written and its end not yet.
    private var responseStarted = false
    /// Bytes arrived since the connection last went idle: a request has begun.
    private var requestBegun = false
    /// Whether each request queued behind the one being answered is owed a `100 Continue`.
    private var continuesOwed: [Bool] = []
    /// A refusal waiting for the responses still owed.
    private var pendingRejection: RequestRejection?
    private var closing = false
    /// The gate's own answer is out: anything written after it (Hummingbird answering a failed
    /// upgrade, say) would be a second response to one request.
    private var answered = false
    private var timer: Scheduled<Void>?

    init(configuration: ConnectionConfiguration, maxBodyBytes: Int, registry: ConnectionRegistry) {
        self.configuration = configuration
        self.maxBodyBytes = maxBodyBytes
        self.registry = registry
        self.arrivals = RequestArrivals()
        arrivals.gate = self
    }

    // MARK: - Lifecycle

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { becomeIdle(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        if timer == nil { becomeIdle(context) }
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        arrivals.gate = nil
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        context.fireUserInboundEventTriggered(event)
        if let upgrade = event as? HTTPServerUpgradeEvents, case .upgradeComplete = upgrade {
            // A WebSocket from here on: its frames and timers are the realtime endpoint's. The
            // frame decoder does not check masking, which RFC 6455 requires of client frames.
            let pipeline = context.pipeline.syncOperations
            if let decoder = try? pipeline.context(handlerType: ByteToMessageHandler<WebSocketFrameDecoder>.self) {
                try? pipeline.addHandler(ClientFrameMasking(), position: .after(decoder.handler))
            }
            pipeline.removeHandler(arrivals, promise: nil)
            pipeline.removeHandler(context: context, promise: nil)
        }
    }

    // MARK: - Requests

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !closing else { return }
        let part = unwrapInboundIn(data)
        switch part {
        case .head(let head):
            if let rejection = RequestRejection.check(head, maxBodyBytes: maxBodyBytes) {
                reject(rejection, context)
                return
            }
            let expectsContinue = RequestRejection.expectsContinue(head)
            if unanswered == 0 {
                if expectsContinue { writeContinue(context) }
            } else {
                continuesOwed.append(expectsContinue)
            }
            unanswered += 1
            readingRequest = true
            registry.markBusy(context.channel)
            schedule(.body, in: configuration.requestBodyTimeout, context)
        case .body:
            break
        case .end:
            readingRequest = false
            cancelTimer()
        }
        context.fireChannelRead(data)
    }

    /// Called by ``RequestArrivals`` for each read: the first bytes of a request start its head
    /// deadline and make the connection busy.
    func bytesArrived(_ context: ChannelHandlerContext) {
        guard !closing, !requestBegun, !readingRequest, unanswered == 0 else { return }
        requestBegun = true
        registry.markBusy(context.channel)
        schedule(.head, in: configuration.requestHeadTimeout, context)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        switch error {
        case let error as HTTPParserError:
            // Not passed on: Hummingbird would write a second response to the same request.
            reject(RequestRejection(parserError: error), context)
        case let rejection as RequestRejection:
            reject(rejection, context)
        case is ByteToMessageDecoderError where closing:
            // Bytes behind a parser error; the connection is closing anyway.
            break
        default:
            context.fireErrorCaught(error)
        }
    }

    // MARK: - Responses

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard !answered else {
            promise?.fail(ChannelError.ioOnClosedChannel)
            return
        }
        switch unwrapOutboundIn(data) {
        case .head(let head) where head.status.code >= 200:
            responseStarted = true
            context.write(data, promise: promise)
        case .head, .body:
            context.write(data, promise: promise)
        case .end:
            context.write(data, promise: promise)
            responseStarted = false
            unanswered = max(0, unanswered - 1)
            if unanswered == 0, let rejection = pendingRejection {
                pendingRejection = nil
                context.flush()
                writeAndClose(rejection, context)
            } else if !continuesOwed.isEmpty, continuesOwed.removeFirst() {
                writeContinue(context)
            } else if unanswered == 0, !readingRequest, !closing {
                becomeIdle(context)
            }
        }
    }

    // MARK: - Refusing

    private func reject(_ rejection: RequestRejection, _ context: ChannelHandlerContext) {
        guard !closing else { return }
        closing = true
        cancelTimer()
        if readingRequest {
            // The request being read is the one refused (its body is late or malformed). It
            // can be answered only if nothing was written for it yet.
            if unanswered == 1, !responseStarted {
                writeAndClose(rejection, context)
            } else {
                Self.close(context)
            }
        } else if unanswered == 0 {
            writeAndClose(rejection, context)
        } else {
            pendingRejection = rejection
        }
    }

    private func writeAndClose(_ rejection: RequestRejection, _ context: ChannelHandlerContext) {
        let (head, body) = rejection.responseParts
        answered = true
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
            Self.close(context)
        }
    }

    /// Closes the input first: the upgrade handler, if still waiting for a first request, then
    /// ends its wait as for a client that hung up, instead of failing it as an error.
    private static func close(_ context: ChannelHandlerContext) {
        context.close(mode: .input, promise: nil)
        context.close(promise: nil)
    }

    private func writeContinue(_ context: ChannelHandlerContext) {
        context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .continue))), promise: nil)
    }

    // MARK: - Deadlines

    private func becomeIdle(_ context: ChannelHandlerContext) {
        requestBegun = false
        registry.markIdle(context.channel)
        schedule(.idle, in: configuration.idleTimeout, context)
    }

    private func schedule(_ deadline: Deadline, in duration: Duration, _ context: ChannelHandlerContext) {
        cancelTimer()
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(duration)) { [self] in
            timer = nil
            switch deadline {
            case .idle: if !closing { closing = true; Self.close(context) }
            case .head: reject(.headTimedOut, context)
            case .body: reject(.bodyTimedOut, context)
            }
        }
    }

    private func cancelTimer() {
        timer?.cancel()
        timer = nil
    }
}

/// Sits in front of the HTTP decoder and tells the ``RequestGate`` when bytes arrive: the gate
/// sees only complete heads, and a head deadline counted from the first byte needs the bytes.
final class RequestArrivals: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    weak var gate: RequestGate?
    private var gateContext: ChannelHandlerContext?

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if let gate {
            if gateContext == nil { gateContext = try? context.pipeline.syncOperations.context(handler: gate) }
            if let gateContext { gate.bytesArrived(gateContext) }
        }
        context.fireChannelRead(data)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        gateContext = nil
    }
}
