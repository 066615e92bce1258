import PostgresNIO

extension PostgresInstanceChannel {
    func waitUntilReceiving(limit: Duration) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await withCheckedContinuation { continuation in
                    let now = self.state.withLockedValue { state -> Bool in
                        if state.receiving { return true }
                        state.waiters.append(continuation)
                        return false
                    }
                    if now { continuation.resume() }
                }
                return true
            }
            group.addTask {
                try? await Task.sleep(for: limit)
                return false
            }
            let first = await group.next() ?? false
            if !first {
                // The waiter is still queued: resume it, so the group can finish.
                let waiters = state.withLockedValue { state in
                    defer { state.waiters = [] }
                    return state.waiters
                }
                waiters.forEach { $0.resume() }
            }
            group.cancelAll()
            return first
        }
    }

    private func setReceiving(_ receiving: Bool) {
        let waiters = state.withLockedValue { state in
            state.receiving = receiving
            guard receiving else { return [CheckedContinuation<Void, Never>]() }
            defer { state.waiters = [] }
            return state.waiters
        }
        waiters.forEach { $0.resume() }
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
                try? await made.close()
                if Task.isCancelled { return }
                throw ListenEnded()
            } catch {
                state.withLockedValue { $0.connection = nil }
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
