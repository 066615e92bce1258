import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncStorage
import NIOPosix
import PostgresNIO

// The contract's transactions: a leased connection, a thread of the pool, BEGIN … COMMIT and the
// store's advisory lock in the mode the transaction asks for.
extension PostgresItemStore {
    /// Runs `body` on one consistent snapshot (`REPEATABLE READ READ ONLY`).
    public func read<T: Sendable>(_ body: @Sendable (any ItemReadTransaction) throws -> T) async throws -> T {
        try await transaction(.read) { try body($0) }
    }

    /// The item with `key`, read by one statement outside a transaction: PostgreSQL runs a lone
    /// statement on a snapshot of its own, and a transaction's `BEGIN` and `COMMIT` would be two
    /// more round trips for one row.
    public func get(_ model: ModelSchema, key: Item) async throws -> Item? {
        try await withConnection { connection in
            try await self.threadPool.runBlocking { [catalog, writeLockKey, processClock] in
                try PostgresTransaction(
                    connection: connection, catalog: catalog, mode: .read, storeLockKey: writeLockKey, processClock: processClock
                ).get(model, key: key)
            }
        }
    }

    /// Runs `body` beside other writes of other items: it holds the store's advisory lock
    /// shared, and each item it reads or writes is locked (an exclusive advisory lock per item)
    /// before it is touched, so a read-check-write of one item never interleaves with another
    /// of the same item. Committed when this returns, rolled back if `body` throws.
    public func write<T: Sendable>(_ body: @Sendable (any ItemWriteTransaction) throws -> T) async throws -> T {
        try await transaction(.write) { try body($0) }
    }

    /// Runs `body` with the store's advisory lock held exclusively: after every write in
    /// flight has committed, and with no other write beside it (resets, seeds, restores).
    public func writeAlone<T: Sendable>(_ body: @Sendable (any ItemWriteTransaction) throws -> T) async throws -> T {
        try await transaction(.alone) { try body($0) }
    }

    /// Takes the store's lock exclusively, so every write in flight commits first, and moves the
    /// clock's floor (which writes stamp above) to the sync's time. See "Why `startedAt` is safe
    /// on PostgreSQL" in docs/architecture.md.
    public func stampSync(now: Int) async throws -> Int {
        try await transaction(.alone) { tx in try tx.stampChange(now: now) }
    }

    func transaction<T: Sendable>(_ mode: PostgresTransaction.Mode, _ body: @Sendable (PostgresTransaction) throws -> T) async throws -> T {
        try await withConnection { connection in
            try await withoutActuallyEscaping(body) { body in
                try await self.threadPool.runBlocking { [catalog, writeLockKey, processClock] in
                    let transaction = PostgresTransaction(
                        connection: connection, catalog: catalog, mode: mode, storeLockKey: writeLockKey, processClock: processClock)
                    let result = try Self.inTransaction(connection, mode: mode, lockKey: writeLockKey) { _ in try body(transaction) }
                    // Committed: later stamps of this process go above it (a rolled-back stamp is not kept).
                    let stamped = transaction.touched.withLockedValue { $0.stamped }
                    if stamped > 0 { processClock.withLockedValue { $0 = max($0, stamped) } }
                    return result
                }
            }
        }
    }

    /// Leases a connection; a pool that cannot connect surfaces as ``AppSyncError``. While the
    /// database is known to be down, waits at most ``PostgresReachability/leaseLimit`` for one.
    func withConnection<T: Sendable>(_ body: @Sendable (BlockingSession) async throws -> T) async throws -> T {
        let (logger, client) = (self.logger, self.client)
        do {
            guard let outage = reachability.down else {
                return try await client.withConnection { connection in
                    try await body(BlockingSession(connection: connection, logger: logger))
                }
            }
            return try await withoutActuallyEscaping(body) { body in
                try await withThrowingTaskGroup(of: T.self) { group in
                    group.addTask {
                        try await client.withConnection { connection in
                            try await body(BlockingSession(connection: connection, logger: logger))
                        }
                    }
                    group.addTask { [settings] in
                        try await Task.sleep(for: PostgresReachability.leaseLimit)
                        throw AppSyncError(
                            .serviceUnavailable,
                            "PostgreSQL at \(settings.host):\(settings.port) is not reachable (\(outage)). DeltaSync reconnects when it is back; retry then.")
                    }
                    defer { group.cancelAll() }
                    guard let first = try await group.next() else { throw CancellationError() }
                    reachability.markUp()
                    return first
                }
            }
        } catch {
            let wrapped = PostgresSQL.wrap(error, "lease a connection to \(settings.host):\(settings.port)")
            if let failure = wrapped as? AppSyncError, failure.errorType == .serviceUnavailable, reachability.down == nil {
                reachability.markDown(PostgresSQL.cause(of: error))
            }
            throw wrapped
        }
    }

    /// `BEGIN` … `COMMIT` around `body`, `ROLLBACK` when it throws. An `.alone` write first
    /// takes the store's lock exclusively; a `.write` takes it shared with its first item lock,
    /// stamp or write (``PostgresTransaction/lockStore()``), saving a round trip.
    static func inTransaction<T>(
        _ connection: BlockingSession, mode: PostgresTransaction.Mode, lockKey: Int64, _ body: (BlockingSession) throws -> T
    ) throws -> T {
        try connection.run("begin a transaction", mode == .read ? "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" : "BEGIN")
        do {
            if mode == .alone {
                var b = SQLBuilder()
                try connection.run("take the write lock", "SELECT pg_advisory_xact_lock(\(b.bind(Int(lockKey))))", b)
            }
            let result = try body(connection)
            try connection.run("commit a transaction", "COMMIT")
            return result
        } catch {
            _ = try? connection.run("roll back a transaction", "ROLLBACK")
            throw error
        }
    }
}
