import DeltaSyncAuth
import DeltaSyncCore
import DeltaSyncGraphQL
import NIOCore

/// AppSync's realtime protocol over the socket's messages, on its event loop.
extension RealtimeSocket {
    /// The wait for `connection_init` and the connection's lifetime.
    private func startTimers() {
        let configuration = realtime.configuration
        let loop = channel.eventLoop
        timers = [
            loop.scheduleTask(in: TimeAmount(configuration.connectionInitTimeout)) {
                if !self.acknowledged { self.end(.notInitialized) }
            },
            loop.scheduleTask(in: TimeAmount(configuration.maxConnectionDuration)) { self.end(.expired) },
        ]
    }

    /// The handshake is decided: messages that waited for it are handled now.
    func authenticated(_ identity: Result<Identity?, AppSyncError>) {
        guard isServing else { return }
        self.identity = identity
        switch identity {
        case .success(let identity):
            // From here on, as the connection's clock starts once it is accepted.
            startTimers()
            listed = realtime.connections.register(identity: identity, subscriptions: subscriptions) { closing in
                switch closing {
                case .shutdown: self.endFromAnywhere(.shuttingDown)
                case .fixture(let drop): self.endFromAnywhere(.closedByFixture(drop: drop))
                case .abort: self.channel.close(promise: nil)
                }
            }
        case .failure(let refusal):
            // The error answers the client's first message (bytes sent right behind the 101
            // response can be lost by clients still switching protocols), or ten seconds.
            timers.append(channel.eventLoop.scheduleTask(in: .seconds(10)) { self.refuse(refusal) })
        }
        busy = false
        handlePending()
    }

    /// Handles one whole message of an authenticated (or refused) connection.
    func handle(_ event: WebSocketMessages.Event) {
        guard case .success = identity else {
            if case .failure(let refusal) = identity { refuse(refusal) }
            return
        }
        guard case .text(let text) = event else {
            outbox.send(RealtimeServerMessage.error(id: nil, AppSyncError(.malformedMessage, "Messages are JSON text frames.")))
            return
        }
        let parsed: RealtimeClientMessage
        do {
            parsed = try RealtimeClientMessage(text: text)
        } catch {
            outbox.send(RealtimeServerMessage.error(id: nil, error))
            return
        }
        switch parsed {
        case .connectionInit:
            acknowledge()
        case .start(let id, let data, let extensions):
            // As AppSync: nothing is started before the connection is acknowledged.
            guard acknowledged else { return }
            start(id: id, data: data, extensions: extensions)
        case .stop(let id):
            guard acknowledged else { return }
            if let subscription = subscriptions.remove(id) { realtime.registry.remove(subscription) }
            outbox.send(RealtimeServerMessage.complete(id: id))
        case .connectionTerminate:
            end(.terminated)
        case .unsupported(let type):
            outbox.send(RealtimeServerMessage.error(
                id: nil, AppSyncError(.unsupportedOperation, "\(type) not supported through the realtime channel")))
        }
    }

    /// `connection_ack` once, then a `ka` every ``RealtimeConfiguration/keepAliveInterval``.
    private func acknowledge() {
        guard !acknowledged else { return }
        acknowledged = true
        let configuration = realtime.configuration
        outbox.send(RealtimeServerMessage.connectionAck(timeoutMilliseconds: configuration.connectionTimeout.milliseconds))
        let interval = TimeAmount(configuration.keepAliveInterval)
        let outbox = outbox
        keepAlive = channel.eventLoop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { _ in
            outbox.send(RealtimeServerMessage.keepAlive)
        }
    }

    /// Decides a start in a task; the messages behind it wait until it is answered.
    private func start(id: String, data: String, extensions: JSONValue) {
        guard !subscriptions.contains(id) else {
            outbox.send(RealtimeServerMessage.error(id: id, AppSyncError(.duplicatedOperation, "Duplicated operation with id \(id)")))
            return
        }
        busy = true
        let (realtime, outbox, started, loop) = (realtime, outbox, subscriptions.count, channel.eventLoop)
        Task {
            let result = await realtime.start(id: id, data: data, extensions: extensions, outbox: outbox, started: started)
            loop.execute { self.started(id: id, result) }
        }
    }

    /// A start decided: added and acknowledged, or answered with its error; dropped if the
    /// connection ended meanwhile.
    private func started(id: String, _ result: Result<Subscription, ResponseErrors>) {
        busy = false
        guard isServing else { return }
        switch result {
        case .failure(let failure):
            outbox.send(RealtimeServerMessage.error(id: id, failure))
        case .success(let subscription):
            subscriptions.insert(subscription)
            // Acknowledged before it can receive: events queue behind the start_ack.
            outbox.send(RealtimeServerMessage.startAck(id: id))
            realtime.registry.add(subscription)
        }
        handlePending()
    }

    /// Never acknowledged: `connection_error`, then the close.
    private func refuse(_ refusal: AppSyncError) {
        guard isServing else { return }
        end(.refused)
        outbox.send(RealtimeServerMessage.connectionError(refusal, code: 401))
        closeAfterWriting(.policyViolation, reason: refusal.message)
    }
}
