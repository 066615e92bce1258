/// A store that several server processes share (PostgreSQL): a change made through one of them
/// must reach the subscribers connected to the others, so the store also carries messages
/// between the processes.
///
/// ```swift
/// if let shared = store as? any SharedItemStore {
///     let channel = shared.instanceChannel(named: "events")
///     channel.send(#"{"mutation":"createPost"}"#)   // returns at once
///     try await channel.run { message in print("another process sent", message) }
/// }
/// ```
public protocol SharedItemStore: ItemStore {
    /// The channel `name` of every process on this store (and only this store: two stores in
    /// one database, under different schemas, never hear each other). Each call makes a new
    /// member of the channel; it hears what the other members send, never what it sent itself.
    func instanceChannel(named name: String) -> any InstanceChannel

    /// Why the shared database is known to be unreachable (a lost connection, the server
    /// shutting down), or `nil` when it is not known to be: what a readiness check reports.
    /// Known from the store's own connections, so it turns back to `nil` once one is made again.
    var outage: String? { get }
}

/// One process's end of a channel between the processes that share a store.
///
/// Messages are best effort, as AppSync's subscriptions are: a process that is not connected
/// (the database restarting) misses what is sent meanwhile, and clients catch up with a delta
/// sync. What a process receives comes in the order each sender sent it, each message once.
public protocol InstanceChannel: Sendable {
    /// Queues `message` for every other member. Returns at once, without waiting for the
    /// database: the caller (a mutation) is never slowed down by the other processes.
    func send(_ message: String)

    /// Sends what ``send(_:)`` queued and hands every message from another member to
    /// `receive`, one at a time, until the task is cancelled. A lost connection is logged and
    /// made again, with a growing pause; this returns only when cancelled.
    func run(receive: @escaping @Sendable (String) -> Void) async

    /// Returns once ``run(receive:)`` receives (its first connection is made), or after
    /// `limit`; `false` then. A server says it is ready only after this: a client that
    /// subscribes the moment the server is up must get the other processes' events.
    func waitUntilReceiving(limit: Duration) async -> Bool
}
