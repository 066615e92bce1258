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
    let client: PostgresClient
    let connectionConfiguration: PostgresConnection.Configuration
    let messages: String
    let logger: Logger
    /// Told when the listening connection is lost and made again: the first to notice an outage.
    let reachability: PostgresReachability
    let state = NIOLockedValueBox(State())
    let wake: (stream: AsyncStream<Void>, continuation: AsyncStream<Void>.Continuation)

    struct State {
        var pending: [String] = []
        var dropped = 0
        var sent = 0
        /// The last number received from each other member.
        var lastReceived: [String: Int] = [:]
        var receiving = false
        /// The listening connection while it is up; messages are sent on it too, lent by
        /// ``borrowListening()``.
        var connection: PostgresConnection?
        /// Sends on the listening connection in flight.
        var borrowers = 0
        /// The listener waiting for those sends to end before it closes the connection.
        var retiring: CheckedContinuation<Void, Never>?
        /// Callers of `waitUntilReceiving`, by id; each removed when resumed.
        var waiters: [Int: CheckedContinuation<Bool, Never>] = [:]
        var nextWaiter = 0
        /// Set once `run` returned: nothing will ever receive.
        var stopped = false
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

    // MARK: - Running (sending in PostgresInstanceChannel+Sending.swift, receiving in +Receiving.swift)

    func run(receive: @escaping @Sendable (String) -> Void) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.sendQueued() }
            group.addTask { await self.listen(receive) }
            await group.next()
            group.cancelAll()
        }
        wake.continuation.finish()
        state.withLockedValue { state in
            state.stopped = true
            state.receiving = false
        }
        resumeWaiters(receiving: false)
    }
}
