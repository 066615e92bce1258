import HummingbirdWebSocket
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOWebSocket

/// What one realtime connection does on its own clock, and how it ends, without a task of its
/// own: the wait for `connection_init`, the `ka` messages and the end of the connection's
/// lifetime are timers on its event loop, and an ending (a limit, `connection_terminate`, the
/// fixture API, a shutdown, a subscriber too slow) closes the connection under the task that
/// reads it, which then finishes.
///
/// Why no task: tasks are what an idle connection costs. A suspended task keeps the stack
/// memory of its deepest wait until it ends, so the reader is the connection's only task.
final class RealtimeLifecycle: Sendable {
    /// Why the connection ends, when the server ends it.
    enum Ending: Sendable, Equatable {
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
    }

    private struct State {
        var acknowledged = false
        var ending: Ending?
        var timers: [Scheduled<Void>] = []
        var keepAlive: RepeatedTask?
    }

    private let state = NIOLockedValueBox(State())
    private let channel: any Channel
    private let outbound: WebSocketOutboundWriter
    private let configuration: RealtimeConfiguration
    private let logger: Logger

    init(channel: any Channel, outbound: WebSocketOutboundWriter, configuration: RealtimeConfiguration, logger: Logger) {
        self.channel = channel
        self.outbound = outbound
        self.configuration = configuration
        self.logger = logger
    }

    /// Starts the wait for `connection_init` and the connection's lifetime.
    func start() {
        let eventLoop = channel.eventLoop
        let initTimeout = eventLoop.scheduleTask(in: TimeAmount(configuration.connectionInitTimeout)) { [self] in
            if !isAcknowledged { end(.notInitialized) }
        }
        let lifetime = eventLoop.scheduleTask(in: TimeAmount(configuration.maxConnectionDuration)) { [self] in
            end(.expired)
        }
        state.withLockedValue { $0.timers = [initTimeout, lifetime] }
    }

    var isAcknowledged: Bool { state.withLockedValue { $0.acknowledged } }

    /// Whether the connection is ending: what it reads from now on is ignored.
    var hasEnded: Bool { state.withLockedValue { $0.ending != nil } }

    /// Acknowledges the connection once: `acknowledge` queues the `connection_ack`, and `keepAlive`
    /// a `ka` every ``RealtimeConfiguration/keepAliveInterval`` from then on (scheduled after the
    /// acknowledgement is queued, so no `ka` goes out before it). Neither runs under the state's
    /// lock: a full queue ends the connection, which takes it.
    func acknowledge(_ acknowledge: () -> Void, keepAlive: @escaping @Sendable () -> Void) {
        let first = state.withLockedValue { state in
            guard !state.acknowledged, state.ending == nil else { return false }
            state.acknowledged = true
            return true
        }
        guard first else { return }
        acknowledge()
        let interval = TimeAmount(configuration.keepAliveInterval)
        let repeated = channel.eventLoop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { _ in keepAlive() }
        // Cancelled by `stop()`, which the reading task calls after this, once reading ends.
        state.withLockedValue { $0.keepAlive = repeated }
    }

    /// Ends the connection; only the first ending counts.
    func end(_ ending: Ending) {
        let first = state.withLockedValue { state in
            guard state.ending == nil else { return false }
            state.ending = ending
            return true
        }
        guard first else { return }
        switch ending {
        case .overflowed:
            logger.warning("realtime subscriber too slow: disconnected", metadata: ["queued": "\(configuration.outboundQueueLimit)"])
            channel.close(promise: nil)
        case .closedByFixture(drop: true):
            channel.close(promise: nil)
        case .expired:
            close(.normalClosure, reason: "Connection lifetime reached; reconnect.")
        case .terminated:
            close(.normalClosure, reason: "connection_terminate received.")
        case .notInitialized:
            close(.policyViolation, reason: "connection_init was not received in time.")
        case .shuttingDown:
            close(.goingAway, reason: "The server is shutting down.")
        case .closedByFixture(drop: false):
            close(.goingAway, reason: "Closed through the DeltaSync fixture API.")
        }
    }

    /// Stops the timers: the connection has ended.
    func stop() {
        let (timers, keepAlive) = state.withLockedValue { state in
            defer {
                state.timers = []
                state.keepAlive = nil
            }
            return (state.timers, state.keepAlive)
        }
        for timer in timers { timer.cancel() }
        keepAlive?.cancel()
    }

    /// Sends a close frame; the reader ends when the client answers it. The socket is closed a
    /// second later in any case: a peer that stopped reading, or never answers, would
    /// otherwise hold the connection, and a shutdown, open.
    private func close(_ code: WebSocketErrorCode, reason: String) {
        let (outbound, channel) = (outbound, channel)
        Task {
            // The second counts from when this task runs: on a loaded machine it can start late,
            // and the close frame must not lose a race it has not entered.
            channel.eventLoop.scheduleTask(in: .seconds(1)) { channel.close(promise: nil) }
            try? await outbound.close(code, reason: reason)
        }
    }
}
