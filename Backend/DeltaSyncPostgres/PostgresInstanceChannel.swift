import DeltaSyncStorage
import Logging
import NIOConcurrencyHelpers
import PostgresNIO

/// An ``InstanceChannel`` over PostgreSQL's `LISTEN`/`NOTIFY`, made by
/// ``PostgresItemStore/instanceChannel(named:)``.
///
/// **Sending.** ``send(_:)`` queues; a task of ``run(receive:)`` sends what is queued, in order,
/// as one `SELECT pg_notify(…)` per batch (a burst of mutations costs one round trip, not one
/// each), on the listening connection: under a burst of writes every pooled connection is taken
/// by a writer waiting for the write lock, and events must not queue behind them. A pooled
/// connection sends while the listening one is down. A notification's payload must stay under 8,000 bytes: a longer
/// message goes into `deltasync_messages` and the notification carries its row id, which
/// receivers read back. Rows older than five minutes are deleted as new ones go in.
///
/// **Receiving.** One connection of its own (not pooled: a pooled connection is handed to
/// others between queries) runs `LISTEN`. When it is lost, the loss is logged, a new one is made
/// after 0.1 s, doubling up to 5 s, and what was sent meanwhile is missed (clients catch up
/// with a delta sync, as after any lost subscription).
///
/// **Each message once, in order.** Each message has a number that grows by one per message
/// of its sender, which every payload carries with the sender's random id (``ChannelPayload``).
/// PostgreSQL delivers a session's notifications in commit order, so a receiver sees each
/// sender's numbers increasing; a message not above the last seen from that sender is dropped,
/// and a member ignores its own. (The numbers also keep payloads distinct: PostgreSQL folds
/// identical notifications sent in one transaction into one.)
///
/// **Several messages in one notification.** Consecutive short messages of a batch share a
/// payload up to its limit: each notification costs PostgreSQL a queue entry and a message to
/// every listening session, this member's own included, and costs each member a message to
/// read, so a burst of mutations is sent as few notifications as fit.
final class PostgresInstanceChannel: InstanceChannel {
    /// Longest message sent inline. NOTIFY refuses payloads of 8,000 bytes or more; the prefix
    /// takes under 40.
    static let inlineLimit = 7_900
    /// Messages queued beyond this (the database slower than the mutations for a long while)
    /// drop the oldest: they would reach subscribers too late to matter.
    static let queueLimit = 10_000

    /// The table long messages are stored in, created by the migration.
    static let messagesTable = "deltasync_messages"

    static func createSQL(_ catalog: PostgresCatalog) -> [String] {
        ["""
        CREATE TABLE IF NOT EXISTS \(catalog.qualified(messagesTable)) (
            id bigserial PRIMARY KEY, body text NOT NULL, sent_at timestamptz NOT NULL DEFAULT now())
        """]
    }

    /// The PostgreSQL channel: one per store schema and channel name, an identifier of letters,
    /// digits and `_` (it is quoted into `LISTEN`).
    let channel: String
    /// This member's id, in every payload it sends.
    let origin: String
    private let client: PostgresClient
    private let connectionConfiguration: PostgresConnection.Configuration
    private let messages: String
    private let logger: Logger
    /// Told when the listening connection is lost and made again: the first to notice an outage.
    private let reachability: PostgresReachability
    private let state = NIOLockedValueBox(State())
    private let wake: (stream: AsyncStream<Void>, continuation: AsyncStream<Void>.Continuation)

    private struct State {
        var pending: [String] = []
        var dropped = 0
        var sent = 0
        /// The last number received from each other member.
        var lastReceived: [String: Int] = [:]
        var receiving = false
        /// The listening connection while it is up; messages are sent on it too.
        var connection: PostgresConnection?
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    init(name: String, store: PostgresItemStore) {
        let hash = UInt64(bitPattern: PostgresSQL.lockKey("deltasync.channel:\(store.settings.schema):\(name)"))
        channel = "deltasync_" + String(hash, radix: 16)
        var generator = SystemRandomNumberGenerator()
        origin = String(generator.next() as UInt64, radix: 36)
        client = store.client
        connectionConfiguration = store.connectionConfiguration
        messages = store.catalog.qualified(Self.messagesTable)
        logger = store.logger
        reachability = store.reachability
        wake = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    // MARK: - Sending

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

    private func sendQueued() async {
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
        if let own = state.withLockedValue({ $0.connection }) {
            do {
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

    // MARK: - Receiving

    func run(receive: @escaping @Sendable (String) -> Void) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.sendQueued() }
            group.addTask { await self.listen(receive) }
            await group.next()
            group.cancelAll()
        }
        wake.continuation.finish()
    }

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

    private func listen(_ receive: @escaping @Sendable (String) -> Void) async {
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

extension PostgresItemStore: SharedItemStore {
    /// A member of the channel `name` of every process on this store's PostgreSQL schema.
    public func instanceChannel(named name: String) -> any InstanceChannel {
        PostgresInstanceChannel(name: name, store: self)
    }

    public var outage: String? { reachability.down }
}
