import GRDB

/// Where the local store's transactions run. The one rule, and why:
///
/// **A transaction runs on the calling thread when its connection is free, and through GRDB's
/// queue otherwise.** GRDB's async access hops to the connection's dispatch queue and back: two
/// thread wake-ups per call, which `ClientBenchmark` measured as a large share of a `save` (see
/// docs/benchmarks.md, Client store). So when no other access
/// holds or awaits the connection, the transaction runs right here: callers are nonisolated and
/// async, so "here" is the cooperative pool, never the caller's actor. When another access holds
/// or awaits it, waiting on this thread would block the pool, so the transaction goes through
/// GRDB's queue and suspends.
///
/// **Checkpoints never run on the cooperative pool.** SQLite would copy the write-ahead log into
/// the database file (with its `fsync`s) inside the commit that fills it, on whatever thread
/// committed. ``WALCheckpoints`` turns that off and runs the checkpoint on GRDB's writer queue
/// instead, counted as a write, so a save that arrives meanwhile suspends rather than blocks.
package struct DatabaseAccess: Sendable {
    let writer: any DatabaseWriter
    /// Transactions and checkpoints running or waiting for the writer.
    let writes = Locked(0)
    /// Reads running or waiting for a reader. An in-memory store reads on its one connection,
    /// so there its reads count with the writes.
    let reads: Locked<Int>
    /// The most reads that find a connection free.
    let readers: Int

    package init(_ writer: any DatabaseWriter) {
        self.writer = writer
        if let pool = writer as? DatabasePool {
            reads = Locked(0)
            readers = pool.configuration.maximumReaderCount
        } else {
            reads = writes
            readers = 1
        }
    }

    /// Runs `transaction` in a write transaction.
    package func write(_ transaction: @escaping @Sendable (Database) throws -> Void) async throws {
        try await access(counting: writes, limit: 1, here: { try writer.write(transaction) }) {
            try await writer.write(transaction)
        }
    }

    /// Runs `body` in a read transaction.
    package func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await access(counting: reads, limit: readers, here: { try writer.read(body) }) {
            try await writer.read(body)
        }
    }

    /// Runs `body` in a read transaction on the calling thread, waiting for a reader when none
    /// is free: for a value that must be there when a synchronous call returns (a live query's
    /// first results). Counted as a read, so async reads meanwhile go through GRDB's queue.
    package func readNow<T>(_ body: (Database) throws -> T) throws -> T {
        reads.withLock { $0 += 1 }
        defer { reads.withLock { $0 -= 1 } }
        return try writer.read(body)
    }

    /// Runs `body` on GRDB's writer queue, outside any transaction, without waiting for it:
    /// counted as a write while it is queued or running.
    func writeInBackground(_ body: @escaping @Sendable (Database) -> Void) {
        writes.withLock { $0 += 1 }
        let writes = writes
        writer.asyncWriteWithoutTransaction { db in
            body(db)
            writes.withLock { $0 -= 1 }
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
