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
    private struct State {
        var task: Task<Void, Never>?
        /// `start()` calls waiting for the current attempt to become ready or fail.
        var waiters: [CheckedContinuation<[ModelSyncedEvent], any Error>] = []
        /// What the last attempt that became ready synced.
        var synced: [ModelSyncedEvent]?
        /// Wakes the outbox of the running session when a local change is recorded.
        var wake: AsyncStream<Void>.Continuation?
        /// The last network status announced.
        var networkActive: Bool?
    }

    private let state = Locked(State())
    private let store: LocalStore
    /// `nil` for a local-only store.
    private let endpoint: SyncEndpoint?
    private let configuration: DataStoreConfiguration
    /// What ``DataStore/events`` delivers.
    let events: SyncEvents
    /// Opens the connection for queries and mutations of one session.
    private let transport: @Sendable (SyncEndpoint) -> any GraphQLTransport
    private let logger = Logger(label: "DeltaSyncClient.sync")

    init(
        store: LocalStore, configuration: DataStoreConfiguration,
        transport: @escaping @Sendable (SyncEndpoint) -> any GraphQLTransport = { GraphQLClient(endpoint: $0) }
    ) {
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
        if events.committed(changes) { _ = state.withLock { $0.wake?.yield() } }
    }

    private func resolveWaiters(_ result: Result<[ModelSyncedEvent], any Error>) {
        let waiters = state.withLock { state in
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(with: result) }
    }

    private func announceNetwork(active: Bool) {
        let changed = state.withLock { state in
            defer { state.networkActive = active }
            return state.networkActive != active
        }
        if changed { events.publish(.networkStatus(active: active)) }
    }

    // MARK: - Running

    private func run() async {
        var attempt = 0
        while !Task.isCancelled {
            let reachedReady = Locked(false)
            do {
                try await session(ready: reachedReady)
            } catch {
                if Task.isCancelled { break }
                let failure = error as? DataStoreError ?? .network("\(error)")
                if case .network = failure { announceNetwork(active: false) }
                configuration.errorHandler(failure)
                resolveWaiters(.failure(failure))
                state.withLock { $0.synced = nil }
                if case .rejected(_, let errorType, _) = failure, errorType.contains("Unauthorized"),
                    case .apiKey = endpoint?.authorization
                {
                    // A refused key stays refused: sync stops until `start()` is called again.
                    // A refused token is asked for again on the next attempt.
                    state.withLock { $0.task = nil }
                    return
                }
                if reachedReady.withLock({ $0 }) { attempt = 0 }
                try? await Task.sleep(for: configuration.retryBackoff.delay(attempt: attempt))
                attempt += 1
            }
        }
    }

    /// One connected session: runs until something fails.
    private func session(ready reachedReady: Locked<Bool>) async throws {
        guard let endpoint else { return }
        let transport = transport(endpoint)
        let schema = store.schema
        let authorizations = AuthorizationPlan(endpoint: endpoint, strategy: configuration.authModeStrategy)
        let sender = OutboxSender(
            store: store, transport: transport, events: events, conflictHandler: configuration.conflictHandler,
            authorizations: authorizations)
        let modelSync = ModelSync(
            store: store, transport: transport, remoteApply: remoteApply, configuration: configuration, authorizations: authorizations)
        try await store.write { db in
            try Outbox.clearInProcess(db)
            return []
        }
        // Each model's subscriptions carry the first credentials its rules pick for `listen`;
        // a token's claims give owner-scoped ones their `owner` argument.
        var listening: [String: ([SyncAuthorization], [String: JSONValue])] = [:]
        for model in schema.models where model.operations.sync != nil {
            let candidates = authorizations.candidates(for: model, .listen)
            var claims: [String: JSONValue] = [:]
            for candidate in candidates where claims.isEmpty { claims = await candidate.claims() }
            listening[model.name] = (candidates, claims)
        }
        let plan = SubscriptionPlan(schema: schema, expressions: currentExpressions(), listening: listening)
        let (messages, reporter) = AsyncThrowingStream.makeStream(of: RealtimeMessage.self)
        let (wake, waker) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let (synced, syncedReporter) = AsyncStream.makeStream(of: [ModelSyncedEvent].self, bufferingPolicy: .bufferingNewest(1))
        state.withLock { $0.wake = waker }
        defer { state.withLock { $0.wake = nil } }

        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                do {
                    try await RealtimeSession(endpoint: endpoint, subscriptions: plan.subscriptions, logger: self.logger)
                        .run(reporting: reporter)
                } catch {
                    reporter.finish(throwing: error)
                    throw error
                }
            }
            group.addTask {
                // Events wait in `messages` while the models sync.
                var iterator = messages.makeAsyncIterator()
                guard case .established(let refused)? = try await iterator.next() else {
                    throw DataStoreError.network("the realtime connection closed before its subscriptions started")
                }
                self.announceNetwork(active: true)
                for (model, reason) in refused.sorted(by: { $0.key < $1.key }) {
                    self.configuration.errorHandler(
                        .rejected(model: model, errorType: "Subscription", message: "\(reason); \(model) syncs without realtime"))
                }
                self.events.publish(.subscriptionsEstablished)
                syncedReporter.yield(try await self.syncModels(schema: schema, modelSync: modelSync, expressions: plan.expressions))
                syncedReporter.finish()
                while let message = try await iterator.next() {
                    guard case .data(let id, let item) = message, let model = plan.modelName(subscription: id) else { continue }
                    try await self.apply(event: item, of: model, expression: plan.expressions[model] ?? .all)
                }
                throw DataStoreError.network("the realtime connection ended")
            }
            group.addTask {
                var results = synced.makeAsyncIterator()
                guard let events = await results.next() else { return }
                self.state.withLock { $0.synced = events }
                reachedReady.withLock { $0 = true }
                self.events.publish(.ready)
                self.resolveWaiters(.success(events))
                try await self.store.write { db in
                    try self.events.publishOutboxStatus(after: db)
                    return []
                }
                var wakes = wake.makeAsyncIterator()
                while true {
                    try await sender.send()
                    guard await wakes.next() != nil else { return }
                }
            }
            try await group.next()
            group.cancelAll()
        }
    }

    /// Each model's sync expression, evaluated now.
    private func currentExpressions() -> [String: QueryPredicate] {
        var expressions: [String: QueryPredicate] = [:]
        for expression in configuration.syncExpressions where expressions[expression.modelName] == nil {
            expressions[expression.modelName] = expression.predicate()
        }
        return expressions
    }

    /// Base or delta sync of every model, parents first.
    private func syncModels(
        schema: AmplifySchema, modelSync: ModelSync, expressions: [String: QueryPredicate]
    ) async throws -> [ModelSyncedEvent] {
        let models = schema.syncOrder.filter { $0.operations.sync != nil }
        events.publish(.syncQueriesStarted(models: models.map(\.name)))
        var synced: [ModelSyncedEvent] = []
        for model in models {
            let event: ModelSyncedEvent?
            do {
                event = try await modelSync.sync(model, expression: expressions[model.name] ?? .all)
            } catch {
                // As Amplify: a model the user may not sync (or, signed out, has no credentials
                // for) is skipped; the others go on.
                guard case .rejected(_, let errorType, let message) = error, errorType == "Unauthorized" || errorType == "SignedOut"
                else { throw error }
                configuration.errorHandler(error)
                events.publish(.modelSyncRefused(model: model.name, reason: message))
                continue
            }
            guard let event else { continue }
            synced.append(event)
            store.modelSynced(model.name)
            events.publish(.modelSynced(event))
        }
        events.publish(.syncQueriesReady)
        return synced
    }

    /// Stores a subscription event. An item outside the model's sync expression is not
    /// stored (a tombstone always is); an event without its item (the mutation that caused it
    /// did not select a required field) is reported and skipped: the next sync brings it.
    private func apply(event item: JSONValue, of model: String, expression: QueryPredicate) async throws {
        guard case .object(let record) = item else {
            configuration.errorHandler(.decoding(model: model, field: nil, reason: "a realtime event came without its item; the next sync brings it"))
            return
        }
        guard record["_deleted"]?.boolValue == true || expression.matches(record) else { return }
        _ = try await remoteApply.apply(model, records: [record])
    }
}

/// The subscriptions of one session and the sync expressions they filter by.
private struct SubscriptionPlan {
    let subscriptions: [RealtimeSubscription]
    let expressions: [String: QueryPredicate]
    private let models: [String: String]

    /// - Parameter listening: per model, the credentials its subscriptions carry and their
    ///   token's claims (for owner arguments).
    init(
        schema: AmplifySchema, expressions: [String: QueryPredicate],
        listening: [String: ([SyncAuthorization], [String: JSONValue])] = [:]
    ) {
        var subscriptions: [RealtimeSubscription] = []
        for model in schema.models where model.operations.sync != nil {
            let documents = SyncDocuments(model: model, schema: schema)
            let expression = expressions[model.name] ?? .all
            let owners = documents.ownerArguments(claims: listening[model.name]?.1 ?? [:])
            for (field, document) in documents.subscriptions {
                // The sync expression filters on the backend too (AppSync's enhanced
                // filtering), as Amplify JS sends it.
                let filtered = expression != .all
                let variables = owners.merging(filtered ? ["filter": expression.filterInput] : [:]) { a, _ in a }
                subscriptions.append(RealtimeSubscription(
                    id: UUID().uuidString.lowercased(), modelName: model.name, field: field, document: document,
                    variables: variables, unfiltered: filtered ? owners : nil, authorizations: listening[model.name]?.0 ?? []))
            }
        }
        self.subscriptions = subscriptions
        self.expressions = expressions
        models = Dictionary(subscriptions.map { ($0.id, $0.modelName) }, uniquingKeysWith: { a, _ in a })
    }

    func modelName(subscription id: String) -> String? { models[id] }
}
