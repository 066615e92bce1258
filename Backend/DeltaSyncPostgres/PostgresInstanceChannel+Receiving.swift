import PostgresNIO

extension PostgresInstanceChannel {
    /// Whether the channel receives within `limit`. Each waiter is resumed exactly once, by
    /// whichever comes first: the listening connection, the limit, the caller's cancellation, or
    /// the channel stopping. (A waiter in a task group raced against a sleep could register after
    /// the sleep had won and the queue had been emptied, and then wait for ever.)
    func waitUntilReceiving(limit: Duration) async -> Bool {
        let id = state.withLockedValue { state -> Int in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                // An answer now, or nil once the waiter is registered (under the one lock).
                let now = state.withLockedValue { state -> Bool? in
                    if state.stopped || Task.isCancelled { return false }
                    if state.receiving { return true }
                    state.waiters[id] = continuation
                    return nil
                }
                if let now {
                    continuation.resume(returning: now)
                    return
                }
                Task { [self] in
                    try? await Task.sleep(for: limit)
                    resumeWaiter(id, receiving: false)
                }
            }
        } onCancel: {
            resumeWaiter(id, receiving: false)
        }
    }

    /// Resumes waiter `id` if nothing resumed it yet.
    private func resumeWaiter(_ id: Int, receiving: Bool) {
        state.withLockedValue { $0.waiters.removeValue(forKey: id) }?.resume(returning: receiving)
    }

    /// Resumes every waiter with `receiving`.
    func resumeWaiters(receiving: Bool) {
        let waiters = state.withLockedValue { state in
            defer { state.waiters = [:] }
            return state.waiters
        }
        waiters.values.forEach { $0.resume(returning: receiving) }
    }

    private func setReceiving(_ receiving: Bool) {
        state.withLockedValue { $0.receiving = receiving }
        if receiving { resumeWaiters(receiving: true) }
    }

    func listen(_ receive: @escaping @Sendable (String) -> Void) async {
        var pause = Duration.milliseconds(100)
        var failures = 0
        while !Task.isCancelled {
            var connection: PostgresConnection?
            do {
                let made = try await PostgresConnection.connect(configuration: connectionConfiguration, id: 1, logger: logger)
                connection = made
                try await made.listen(on: channel) { notifications in
                    state.withLockedValue { $0.connection = made }
                    setReceiving(true)
                    reachability.markUp()
                    if failures > 0 {
                        logger.info("receiving the other instances' events again", metadata: ["channel": "\(channel)"])
                    }
                    failures = 0
                    pause = .milliseconds(100)
                    for try await notification in notifications {
                        for message in try await messages(in: notification.payload, on: made) { receive(message) }
                    }
                }
                await retireListening()
                try? await made.close()
                if Task.isCancelled { return }
                throw ListenEnded()
            } catch {
                await retireListening()
                setReceiving(false)
                if let connection { try? await connection.close() }
                if Task.isCancelled { return }
                reachability.markDown(PostgresSQL.cause(of: error))
                failures += 1
                // Once per outage, then quietly: a database down for minutes logs one warning.
                if failures == 1 {
                    logger.warning(
                        "not receiving the other instances' events; retrying (events sent meanwhile are missed)",
                        metadata: ["error": "\(PostgresSQL.wrap(error, "listen for the other instances' events"))"])
                }
                try? await Task.sleep(for: pause)
                pause = min(pause * 2, .seconds(5))
            }
        }
    }

    /// The messages a payload carries that are new: none for this member's own, for ones seen
    /// already, or for a payload that cannot be read (logged).
    private func messages(in payload: String, on connection: PostgresConnection) async throws -> [String] {
        guard let parsed = ChannelPayload(payload) else {
            logger.warning("a notification on the events channel is not DeltaSync's", metadata: ["payload": "\(payload.prefix(80))"])
            return []
        }
        guard parsed.origin != origin else { return [] }
        // Numbered first to last; keep those above the last seen from this sender.
        let count = parsed.count
        let skip = state.withLockedValue { state -> Int in
            let last = state.lastReceived[parsed.origin] ?? (parsed.first - 1)
            state.lastReceived[parsed.origin] = max(last, parsed.first + count - 1)
            return max(0, min(count, last - parsed.first + 1))
        }
        guard skip < count else { return [] }
        switch parsed.body {
        case .inline(let texts):
            return Array(texts.dropFirst(skip))
        case .stored(let id):
            var b = SQLBuilder()
            let sql = "SELECT body FROM \(messages) WHERE id = \(b.bind(id))"
            let rows = try await connection.query(b.query(sql), logger: logger).get().rows
            guard let body = try rows.first?.column(0, String.self) else {
                logger.warning("a long event from another instance was gone before it was read", metadata: ["id": "\(id)"])
                return []
            }
            return [body]
        }
    }
}

/// The notifications ended without an error: the connection closed.
private struct ListenEnded: Error, CustomStringConvertible {
    var description: String { "the connection closed" }
}
