import DeltaSyncCore
import DeltaSyncLocalStore
import Foundation
import Logging

/// Keeps a local store in step with its backend, as Amplify's sync engine does, for as long
/// as it runs:
///
/// 1. open the create, update and delete subscriptions of every model and hold their events;
/// 2. run each model's base or delta sync (``ModelSync``);
/// 3. apply the held events, then every event as it arrives (``RemoteApply``);
/// 4. send the outbox, and every local change as it is made (``OutboxSender``).
///
/// When the backend cannot be reached, or the connection is lost, it starts over after a
/// capped exponential backoff: resubscribing first, then a delta sync, so nothing that changed
/// meanwhile is missed. Only a refused API key stops it.
///
/// It works on the ``LocalStore``, never on the ``DataStore`` façade, which owns it and stops
/// it when the app releases the store. Without an endpoint it only announces local changes.
final class SyncEngine: AttachedSync {
    struct State {
        var task: Task<Void, Never>?
        /// `start()` calls waiting for the current attempt to become ready or fail.
        var waiters: [CheckedContinuation<[ModelSyncedEvent], any Error>] = []
        /// What the last attempt that became ready synced.
        var synced: [ModelSyncedEvent]?
        /// Wakes the outbox of the running session when a local change is recorded.
        var wake: AsyncStream<Void>.Continuation?
        /// The last network status announced.
        var networkActive: Bool?
        /// Ends the backoff between attempts early; set while the engine waits one out.
        var backoffWake: AsyncStream<Void>.Continuation?
        /// Ends the running session: with a reason it fails, with `nil` it restarts.
        var sessionEnd: AsyncStream<String?>.Continuation?
        /// What the network monitor last said; `nil` before it said anything.
        var pathAvailable: Bool?
    }

    let state = Locked(State())
    let store: LocalStore
    /// `nil` for a local-only store.
    let endpoint: SyncEndpoint?
    let configuration: DataStoreConfiguration
    /// What ``DataStore/events`` delivers.
    let events: SyncEvents
    /// Opens the connection for queries and mutations of one session.
    let transport: @Sendable (SyncEndpoint) -> any GraphQLTransport
    let logger = Logger(label: "DeltaSyncClient.sync")

    init(
        store: LocalStore, configuration: DataStoreConfiguration,
        transport: (@Sendable (SyncEndpoint) -> any GraphQLTransport)? = nil
    ) {
        let http = configuration.network.http
        let transport = transport ?? { GraphQLClient(endpoint: $0, http: http) }
        self.store = store
        endpoint = configuration.endpoint
        self.configuration = configuration
        events = SyncEvents(bus: Broadcast<DataStoreEvent>(), schema: store.schema)
        self.transport = transport
        // Weak: the store outlives the engine only to run the last transactions of a cancelled
        // session; the engine must not be kept alive by it.
        store.onCommit { [weak self] changes in self?.committed(changes) }
    }

    deinit {
        events.bus.finish()
    }

    /// Applies remote records as a sync page or subscription event would.
    var remoteApply: RemoteApply {
        let events = events
        return RemoteApply(store: store, eventsObserved: { events.hasSubscribers })
    }

    // MARK: - Lifecycle

    /// Starts syncing if it is not running, without waiting.
    func ensureStarted() {
        guard endpoint != nil else { return }
        state.withLock { state in
            guard state.task == nil else { return }
            state.task = Task { await self.run() }
        }
    }

    /// Starts syncing if needed and waits until the store is ready (synced, outbox running),
    /// or the attempt failed; a failed attempt is retried in the background.
    func start() async throws(DataStoreError) -> [ModelSyncedEvent] {
        guard endpoint != nil else { return [] }
        do {
            return try await withCheckedThrowingContinuation { continuation in
                let ready: [ModelSyncedEvent]? = state.withLock { state in
                    if state.task != nil, let synced = state.synced { return synced }
                    state.waiters.append(continuation)
                    if state.task == nil { state.task = Task { await self.run() } }
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } catch let error as DataStoreError {
            throw error
        } catch {
            throw .network("\(error)")
        }
    }

    /// Stops syncing and waits until it has stopped. Local data stays.
    func stop() async {
        let task = state.withLock { state in
            defer {
                state.task = nil
                state.synced = nil
            }
            return state.task
        }
        task?.cancel()
        await task?.value
        store.syncStopped()
        resolveWaiters(.failure(DataStoreError.stopped))
    }

    /// Stops syncing without waiting: the store is going away.
    func cancel() {
        state.withLock { $0.task }?.cancel()
        events.bus.finish()
    }

    /// A transaction committed, on the writer: its changes are announced, and local ones wake
    /// the outbox.
    private func committed(_ changes: [StoredChange]) {
        guard events.committed(changes) else { return }
        // The outbox of a running session sends it now; an engine waiting out a backoff
        // tries again now rather than when its wait ends.
        _ = state.withLock { $0.wake?.yield() }
        wake()
    }

    func resolveWaiters(_ result: Result<[ModelSyncedEvent], any Error>) {
        let waiters = state.withLock { state in
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(with: result) }
    }

    func announceNetwork(active: Bool) {
        let changed = state.withLock { state in
            defer { state.networkActive = active }
            return state.networkActive != active
        }
        if changed { events.publish(.networkStatus(active: active)) }
    }
}
