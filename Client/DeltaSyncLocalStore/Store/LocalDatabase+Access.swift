import GRDB

/// How many accesses hold or wait for the database's connections.
struct ConnectionUsage: Sendable {
    /// Transactions running or waiting for the writer.
    let writes = Locked(0)
    /// Reads running or waiting for a reader. An in-memory store reads on its one connection,
    /// so there its reads count with the writes.
    let reads: Locked<Int>
    /// The most reads that find a connection free.
    let readers: Int

    init(_ writer: any DatabaseWriter) {
        if let pool = writer as? DatabasePool {
            reads = Locked(0)
            readers = pool.configuration.maximumReaderCount
        } else {
            reads = writes
            readers = 1
        }
    }
}

extension LocalDatabase {
    /// Runs `transaction` in a write transaction.
    ///
    /// GRDB's async access hops to the connection's dispatch queue and back: two thread
    /// wake-ups per call, a third of a `save` on a 2-core machine (p50 0.23 ms that way, 0.15 ms
    /// on the calling thread). So when the writer is free the transaction runs right here: this
    /// method is nonisolated and async, so "here" is the cooperative pool, never the caller's
    /// actor. When another transaction holds or awaits the writer, waiting for it on this
    /// thread would block the pool, so the transaction goes through GRDB's queue and suspends.
    func write(_ transaction: @escaping @Sendable (Database) throws -> Void) async throws {
        try await access(counting: usage.writes, limit: 1, here: { try writer.write(transaction) }) {
            try await writer.write(transaction)
        }
    }

    /// Runs `body` in a read transaction, on the calling thread when a connection is free (see
    /// ``write(_:)``).
    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await access(counting: usage.reads, limit: usage.readers, here: { try writer.read(body) }) {
            try await writer.read(body)
        }
    }

    /// Runs `here` when fewer than `limit` accesses counted by `counter` are under way (it
    /// then finds a connection free), else `queued`.
    private func access<T>(
        counting counter: Locked<Int>, limit: Int, here: () throws -> T, queued: () async throws -> T
    ) async throws -> T {
        let free = counter.withLock { count in
            defer { count += 1 }
            return count < limit
        }
        defer { counter.withLock { $0 -= 1 } }
        return free ? try here() : try await queued()
    }
}
