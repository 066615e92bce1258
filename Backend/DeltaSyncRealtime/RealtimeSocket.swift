import DeltaSyncAuth
import DeltaSyncCore
import Logging
import NIOCore
import NIOWebSocket

/// One realtime connection after its WebSocket upgrade, served on its event loop without a task
/// of its own: frames arrive in ``channelRead(context:data:)``, messages go out through its
/// ``RealtimeOutbox``, `ka`, the wait for `connection_init` and the connection's lifetime are
/// timers on the loop, and a task runs only while a handshake is authenticated or a start is
/// decided.
///
/// Why no task: an idle connection served by a task (as HummingbirdWebSocket serves one) keeps
/// the stack memory of that task's deepest wait, about 17 KB under Hummingbird's connection
/// handler and the WebSocket handler, for as long as it is open. A staging server is judged on
/// how many devices one machine holds.
///
/// Messages are handled one at a time, in order: those that arrive while a start is decided
/// wait, and past ``pendingLimit`` the socket stops reading until they are handled.
///
/// All mutable state belongs to the channel's event loop; what arrives from elsewhere (an
/// overflow, the fixture API, a shutdown, a finished task) is sent there first.
package final class RealtimeSocket: ChannelDuplexHandler, RemovableChannelHandler, @unchecked Sendable {
    package typealias InboundIn = WebSocketFrame
    package typealias OutboundIn = WebSocketFrame
    package typealias OutboundOut = WebSocketFrame

    /// Why the connection ends.
    enum Ending: Equatable {
        /// Its outbound queue filled: the socket is closed, as writes to it are stuck.
        case overflowed
        /// ``RealtimeConfiguration/maxConnectionDuration`` passed: 1000.
        case expired
        /// No `connection_init` within ``RealtimeConfiguration/connectionInitTimeout``: 1008.
        case notInitialized
        /// The server is shutting down: 1001.
        case shuttingDown
        /// The fixture API closed it: 1001, or (`drop`) the socket closed without a close frame.
        case closedByFixture(drop: Bool)
        /// The client sent `connection_terminate`: 1000.
        case terminated
        /// The handshake's credentials were refused: `connection_error`, then 1008.
        case refused
        /// The client sent its close frame; it is answered.
        case clientClosed
        /// The client broke the WebSocket protocol: closed with the violation's code.
        case violation
    }

    /// Messages waiting while a start is decided before the socket stops reading.
    static let pendingLimit = 64

    let realtime: RealtimeProtocol
    let outbox: RealtimeOutbox
    let subscriptions = Subscriptions()
    let channel: any Channel
    /// What the upgrade request carried to authenticate with.
    private let carried: Result<RealtimeAuthorization, AppSyncError>

    // Event-loop state.
    /// Who is connected: `nil` while the handshake is authenticated.
    var identity: Result<Identity?, AppSyncError>?
    var acknowledged = false
    /// A handshake's authentication or a start is running: messages wait.
    var busy = true
    private(set) var ending: Ending?
    private var closed = false
    private var messages = WebSocketMessages(maxSize: 1 << 20)
    private var pending = CircularBuffer<WebSocketMessages.Event>()
    private var holdingRead = false
    var timers: [Scheduled<Void>] = []
    var keepAlive: RepeatedTask?
    /// The connection's entry in ``RealtimeConnections``, once authenticated.
    var listed: Int?

    init(realtime: RealtimeProtocol, channel: any Channel, carried: Result<RealtimeAuthorization, AppSyncError>) {
        self.realtime = realtime
        self.channel = channel
        self.carried = carried
        let ending = EndingRelay()
        outbox = RealtimeOutbox(channel: channel, limit: realtime.configuration.outboundQueueLimit, logger: realtime.logger) {
            realtime.registry.countDropped()
            ending.socket?.endFromAnywhere(.overflowed)
        }
        ending.socket = self
    }

    package func handlerAdded(context: ChannelHandlerContext) {
        guard context.channel.isActive else {
            closed = true
            return
        }
        let (realtime, carried, loop) = (realtime, carried, context.eventLoop)
        // Authenticated once upgraded: verifying a token may wait (keys are loaded on first use).
        Task {
            let identity = await realtime.identity(carried)
            loop.execute { self.authenticated(identity) }
        }
    }

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let event = messages.receive(unwrapInboundIn(data))
        if ending != nil {
            // Closing: only the client's answer to the close frame matters.
            if case .close = event { context.close(promise: nil) }
            return
        }
        switch event {
        case .nothing:
            break
        case .ping(let payload):
            outbox.sendPong(payload)
        case .close:
            ending = .clientClosed
            closeAfterWriting(.normalClosure)
        case .violation(let code):
            ending = .violation
            realtime.logger.debug("realtime connection ended", metadata: ["reason": "\(code)"])
            closeAfterWriting(code)
        case .text, .binary:
            pending.append(event)
            handlePending()
        }
    }

    /// Holds reads back while too many messages wait.
    package func read(context: ChannelHandlerContext) {
        if pending.count >= Self.pendingLimit {
            holdingRead = true
        } else {
            context.read()
        }
    }

    package func channelInactive(context: ChannelHandlerContext) {
        closed = true
        pending.removeAll()
        for timer in timers { timer.cancel() }
        timers = []
        keepAlive?.cancel()
        keepAlive = nil
        for subscription in subscriptions.removeAll() { realtime.registry.remove(subscription) }
        outbox.finish()
        if let listed { realtime.connections.unregister(listed) }
        listed = nil
        context.fireChannelInactive()
    }

    package func errorCaught(context: ChannelHandlerContext, error: any Error) {
        realtime.logger.debug("realtime connection failed", metadata: ["error": "\(error)"])
        context.close(promise: nil)
    }

    /// Handles the waiting messages in order, until one starts a task.
    func handlePending() {
        while !busy, isServing, let event = pending.popFirst() {
            handle(event)
        }
        if holdingRead, pending.count < Self.pendingLimit / 2, !closed {
            holdingRead = false
            channel.read()
        }
    }

    /// Ends the connection from any thread: on its event loop, later.
    func endFromAnywhere(_ ending: Ending) {
        channel.eventLoop.execute { self.end(ending) }
    }

    /// Ends the connection; only the first ending counts.
    func end(_ ending: Ending) {
        guard self.ending == nil, !closed else { return }
        self.ending = ending
        pending.removeAll()
        switch ending {
        case .overflowed:
            realtime.logger.warning(
                "realtime subscriber too slow: disconnected", metadata: ["queued": "\(realtime.configuration.outboundQueueLimit)"])
            channel.close(promise: nil)
        case .closedByFixture(drop: true):
            channel.close(promise: nil)
        case .expired, .terminated:
            close(.normalClosure, reason: ending == .expired ? "Connection lifetime reached; reconnect." : "connection_terminate received.", awaitingAnswer: true)
        case .notInitialized:
            close(.policyViolation, reason: "connection_init was not received in time.", awaitingAnswer: true)
        case .shuttingDown:
            close(.goingAway, reason: "The server is shutting down.", awaitingAnswer: true)
        case .closedByFixture(drop: false):
            close(.goingAway, reason: "Closed through the DeltaSync fixture API.", awaitingAnswer: true)
        case .refused, .clientClosed, .violation:
            break
        }
    }

    /// Sends a close frame behind what is queued. The client's answer closes the socket, or,
    /// without `awaitingAnswer`, the frame being written does (the server closes first when it
    /// answers a close or fails the connection, RFC 6455 7.1.1). A second closes it in any case:
    /// a peer that stopped reading would otherwise hold the connection, and a shutdown, open.
    private func close(_ code: WebSocketErrorCode, reason: String = "", awaitingAnswer: Bool) {
        let channel = channel
        outbox.close(code: UInt16(webSocketErrorCode: code), reason: reason) {
            if !awaitingAnswer { channel.close(promise: nil) }
        }
        channel.eventLoop.scheduleTask(in: .seconds(1)) { channel.close(promise: nil) }
    }

    /// Answers the client's close, or fails the connection: the socket closes once the frame is out.
    func closeAfterWriting(_ code: WebSocketErrorCode, reason: String = "") {
        close(code, reason: reason, awaitingAnswer: false)
    }

    /// Whether the socket still serves: a task's result arriving later is dropped.
    var isServing: Bool { !closed && ending == nil }
}

/// Lets the outbox's overflow reach the socket it belongs to, which owns the outbox: weak, so
/// the two do not keep each other.
private final class EndingRelay: @unchecked Sendable {
    weak var socket: RealtimeSocket?
}
