import PostgresNIO

extension PostgresInstanceChannel {
    func send(_ message: String) {
        let first = state.withLockedValue { state -> Bool in
            if state.pending.count >= Self.queueLimit {
                state.pending.removeFirst()
                state.dropped += 1
            }
            state.pending.append(message)
            return state.pending.count == 1
        }
        if first { wake.continuation.yield() }
    }

    func sendQueued() async {
        for await _ in wake.stream {
            while true {
                let (batch, dropped, first) = state.withLockedValue { state in
                    defer {
                        state.sent += state.pending.count
                        state.pending = []
                        state.dropped = 0
                    }
                    return (state.pending, state.dropped, state.sent + 1)
                }
                if dropped > 0 {
                    logger.warning(
                        "events for the other instances dropped: more were waiting than PostgreSQL took",
                        metadata: ["dropped": "\(dropped)"])
                }
                guard !batch.isEmpty else { break }
                do {
                    try await notify(batch, firstNumber: first)
                } catch {
                    logger.warning(
                        "events not sent to the other instances",
                        metadata: ["events": "\(batch.count)", "error": "\(PostgresSQL.wrap(error, "notify the other instances"))"])
                }
            }
        }
    }

    /// One `pg_notify` per message, in one statement; long messages stored first.
    private func notify(_ batch: [String], firstNumber: Int) async throws {
        // The listening connection when there is one: pooled connections are all taken by
        // writers waiting for the write lock when mutations come fast, and an event must not
        // wait behind them.
        if let own = borrowListening() {
            do {
                defer { giveBack() }
                return try await notify(batch, firstNumber: firstNumber, on: own)
            } catch let error as PSQLError where PostgresSQL.isConnectionLoss(error) {
                // Lost meanwhile: the pool's connection is as good as any.
            }
        }
        try await client.withConnection { connection in
            try await notify(batch, firstNumber: firstNumber, on: connection)
        }
    }

    private func notify(_ batch: [String], firstNumber: Int, on connection: PostgresConnection) async throws {
        var payloads = PayloadPacker(origin: origin)
        for (offset, message) in batch.enumerated() {
            let number = firstNumber + offset
            guard message.utf8.count > Self.inlineLimit else {
                payloads.add(message, number: number)
                continue
            }
            var b = SQLBuilder()
            let sql = """
                WITH expired AS (DELETE FROM \(messages) WHERE sent_at < now() - interval '5 minutes')
                INSERT INTO \(messages) (body) VALUES (\(b.bind(message))) RETURNING id
                """
            let rows = try await connection.query(b.query(sql), logger: logger).get().rows
            guard let id = try rows.first?.column(0, Int.self) else { continue }
            payloads.addStored(id: id, number: number)
        }
        var b = SQLBuilder()
        // unnest returns the array's elements in order, and the select list runs row by row.
        let sql = "SELECT pg_notify(\(b.bind(channel)), p) FROM unnest(\(b.bind(payloads.finish()))::text[]) AS p"
        _ = try await connection.query(b.query(sql), logger: logger).get()
    }
}
