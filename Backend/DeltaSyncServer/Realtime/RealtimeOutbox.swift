import NIOConcurrencyHelpers

/// The messages waiting to be written to one connection, in order. Bounded: a subscriber
/// that stops reading fills it, and is then disconnected (its `overflowed` callback) instead of making
/// the server hold its events without limit or slowing anyone else down.
///
/// The writer takes everything queued at once, so a burst goes out in one socket write.
final class RealtimeOutbox: Sendable {
    private struct State {
        var queue: [[UInt8]] = []
        var waiter: CheckedContinuation<[[UInt8]]?, Never>?
        var finished = false
    }

    private let state = NIOLockedValueBox(State())
    private let limit: Int
    /// Called when a message did not fit.
    private let overflowed: @Sendable () -> Void

    init(limit: Int, overflowed: @escaping @Sendable () -> Void) {
        self.limit = limit
        self.overflowed = overflowed
    }

    /// Queues a message; `false` when the queue was full (the connection is being closed).
    @discardableResult
    func send(_ message: [UInt8]) -> Bool {
        enum Outcome { case queued, handed(CheckedContinuation<[[UInt8]]?, Never>), full, closed }
        let outcome: Outcome = state.withLockedValue { state in
            if state.finished { return .closed }
            if let waiter = state.waiter {
                state.waiter = nil
                return .handed(waiter)
            }
            guard state.queue.count < limit else { return .full }
            state.queue.append(message)
            return .queued
        }
        switch outcome {
        case .queued: return true
        case .handed(let waiter):
            waiter.resume(returning: [message])
            return true
        case .full:
            overflowed()
            return false
        case .closed: return false
        }
    }

    /// Everything queued, waiting for a message if there is none; `nil` once finished or
    /// when the waiting task is cancelled (which finishes the outbox).
    func next() async -> [[UInt8]]? {
        await withTaskCancellationHandler {
            await take()
        } onCancel: {
            finish()
        }
    }

    private func take() async -> [[UInt8]]? {
        await withCheckedContinuation { continuation in
            let ready: [[UInt8]]?? = state.withLockedValue { state in
                if !state.queue.isEmpty {
                    defer { state.queue = [] }
                    return .some(state.queue)
                }
                if state.finished { return .some(nil) }
                state.waiter = continuation
                return .none
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// No more messages: the connection is closing.
    func finish() {
        let waiter = state.withLockedValue { state -> CheckedContinuation<[[UInt8]]?, Never>? in
            state.finished = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
    }
}
