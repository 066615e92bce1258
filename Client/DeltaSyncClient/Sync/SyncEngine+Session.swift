import DeltaSyncCore
import DeltaSyncLocalStore

// One attempt after another, each a connected session: subscriptions, model syncs, events and
// the outbox side by side until something fails.
extension SyncEngine {
    func run() async {
        let pathFollower = configuration.networkMonitor.map { monitor in Task { await self.follow(monitor) } }
        defer { pathFollower?.cancel() }
        var attempt = 0
        while !Task.isCancelled {
            let reachedReady = Locked(false)
            do {
                try await session(ready: reachedReady)
            } catch is SessionRestart {
                attempt = 0
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
                await backoff(configuration.retryBackoff.delay(attempt: attempt))
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
        let plan = SessionSubscriptions(
            schema: schema, expressions: currentExpressions(), listening: await listening(schema, authorizations))
        let (messages, reporter) = AsyncThrowingStream.makeStream(of: RealtimeMessage.self)
        let (wake, waker) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let (synced, syncedReporter) = AsyncStream.makeStream(of: [ModelSyncedEvent].self, bufferingPolicy: .bufferingNewest(1))
        state.withLock { $0.wake = waker }
        let ends = sessionEndSignal()
        defer {
            state.withLock { state in
                state.wake = nil
                state.sessionEnd = nil
            }
        }

        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await Self.end(when: ends) }
            group.addTask {
                do {
                    try await RealtimeSession(
                        endpoint: endpoint, subscriptions: plan.subscriptions, transport: self.configuration.network.realtime(self.logger))
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

    /// Each model's subscriptions carry the first credentials its rules pick for `listen`; a
    /// token's claims give owner-scoped ones their `owner` argument.
    private func listening(
        _ schema: AmplifySchema, _ authorizations: AuthorizationPlan
    ) async -> [String: ([SyncAuthorization], [String: JSONValue])] {
        var listening: [String: ([SyncAuthorization], [String: JSONValue])] = [:]
        for model in schema.models where model.operations.sync != nil {
            let candidates = authorizations.candidates(for: model, .listen)
            var claims: [String: JSONValue] = [:]
            for candidate in candidates where claims.isEmpty { claims = await candidate.claims() }
            listening[model.name] = (candidates, claims)
        }
        return listening
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
