import DeltaSyncClient
import DeltaSyncCore
import Foundation
import NIOConcurrencyHelpers

/// One device of a ``Simulation``: a real ``DataStore`` on a database file of its own, with its
/// own identity, syncing with the simulation's server through a ``NetworkLink`` of its own, which
/// the simulation cuts and restores as a phone loses and finds its signal.
///
/// A device saves and reads items of the schema the simulation was started with (not generated
/// models: the simulation runs on whatever schema it is given), and restarts the way an app's
/// process does: the store is closed and its file opened again, outbox and all.
///
/// ```swift
/// // try await simulation.device("phone").save("Todo", ["id": "t1", "name": "milk"])
/// // let todos = try await simulation.device("phone").items("Todo")
/// ```
public final class SimulatedDevice: Sendable {
    /// The name scenarios and reports call it by.
    public let name: String
    /// Who it syncs as.
    public let identity: DeviceIdentity
    /// What it syncs (its sync expressions).
    public let scope: SyncScope
    /// Its network: ``NetworkLink/goOffline()`` cuts it off the server.
    public let link: NetworkLink
    /// Its database file, kept after a failed run.
    public let file: URL
    let models: StoreModels
    let configuration: DataStoreConfiguration
    let timeline: SimulationTimeline
    private let current: NIOLockedValueBox<Opened>

    /// The open store, every event it published since it was opened, and the task writing
    /// them into the timeline.
    private struct Opened: Sendable {
        let store: DataStore
        let events: EventWaiter<DataStoreEvent>
        let recording: Task<Void, Never>
    }

    init(
        name: String, identity: DeviceIdentity, scope: SyncScope, link: NetworkLink, file: URL, models: StoreModels, configuration: DataStoreConfiguration,
        timeline: SimulationTimeline
    ) throws {
        self.name = name
        self.identity = identity
        self.scope = scope
        self.link = link
        self.file = file
        self.models = models
        self.configuration = configuration
        self.timeline = timeline
        current = NIOLockedValueBox(try Self.open(file, name: name, models: models, configuration: configuration, timeline: timeline))
    }

    private static func open(
        _ file: URL, name: String, models: StoreModels, configuration: DataStoreConfiguration, timeline: SimulationTimeline
    ) throws -> Opened {
        let store = try DataStore(models: models, location: .file(file), configuration: configuration)
        let published = store.events
        let recording = Task {
            for await event in published { timeline.record(name, .event, SimulationTimeline.describe(event)) }
        }
        return Opened(store: store, events: EventWaiter(store.events), recording: recording)
    }

    /// The store as it is open now (a restart opens another).
    public var store: DataStore { current.withLockedValue { $0.store } }
    /// Every event the store published since it was last opened.
    public var events: [DataStoreEvent] { current.withLockedValue { $0.events.events } }
    private var eventWaiter: EventWaiter<DataStoreEvent> { current.withLockedValue { $0.events } }

    /// Starts syncing and waits until the store is ready; returns at once when the server
    /// cannot be reached (an offline device), while sync keeps trying in the background.
    public func start() async throws {
        do {
            try await store.start()
        } catch .network(_) {
            // Offline: sync retries with backoff, and catches up once the link is back.
        }
    }

    // MARK: - Edits

    /// Saves `fields` to the item with their key: created when the device holds none, else the
    /// stored item with `fields` set (an update sends only what the store holds, as an app's
    /// edit of a model does).
    ///
    /// - Throws: ``DataStoreError/conditionFailed(model:reason:)`` when `condition` does not hold.
    public func save(_ modelName: String, _ fields: Item, where condition: QueryPredicate? = nil) async throws {
        let model = try self.model(modelName)
        let key = try Self.key(fields, of: model)
        let local = store.store
        // The stored fields, as a model's `item` holds them: sync metadata stays the store's.
        let stored = try await local.fetch(modelName, key: key) ?? [:]
        var item: Item = [:]
        for field in model.storedFields { item[field.name] = stored[field.name] ?? .null }
        for (name, value) in fields { item[name] = value }
        try await local.save(item, of: model, where: condition)
    }

    /// Deletes the item with `key` (and its `@hasMany` children, as an app's delete does).
    public func delete(_ modelName: String, key: Item, where condition: QueryPredicate? = nil) async throws {
        let model = try self.model(modelName)
        try await store.store.delete(key: try Self.key(key, of: model), of: model, where: condition)
    }

    /// The live items of `modelName` the device holds, sync metadata included.
    public func items(_ modelName: String) async throws -> [Item] {
        _ = try model(modelName)
        return try await store.store.query(modelName, where: .all, sort: [], paginate: nil) { row in row.item }
    }

    /// How many changes wait in the outbox.
    public func pendingCount() async throws -> Int {
        try await store.pendingMutations().count
    }

    // MARK: - Waiting

    /// Returns once the outbox is empty: everything the device changed reached the server.
    public func waitForEmptyOutbox(timeout: Duration = .seconds(30)) async throws {
        while true {
            let waiter = eventWaiter
            let announced = waiter.events.filter(Self.emptyOutbox).count
            if try await store.pendingMutations().isEmpty { return }
            try await waiter.wait(for: "\(name)'s outbox to empty", occurrences: announced + 1, timeout: timeout, Self.emptyOutbox)
        }
    }

    /// Returns once the device received another change from the server than the `count` it had.
    func waitForReceived(after count: Int, timeout: Duration) async throws {
        try await eventWaiter.wait(for: "\(name) to receive a change", occurrences: count + 1, timeout: timeout, Self.received)
    }

    /// How many changes the device received from the server since it was opened.
    var receivedCount: Int { events.filter(Self.received).count }

    static let emptyOutbox: @Sendable (DataStoreEvent) -> Bool = { if case .outboxStatus(isEmpty: true) = $0 { true } else { false } }
    static let received: @Sendable (DataStoreEvent) -> Bool = { if case .syncReceived = $0 { true } else { false } }

    // MARK: - Restarts

    /// Closes the store as an app's process ends, and opens its file again as the app's next
    /// launch does; then starts syncing when `start` says so. What was in the outbox is sent then.
    public func restart(start: Bool = true) async throws {
        let old = current.withLockedValue { $0 }
        await old.store.stop()
        old.recording.cancel()
        timeline.record(name, .event, "restarted: the store's file opened again")
        let reopened = try Self.open(file, name: name, models: models, configuration: configuration, timeline: timeline)
        current.withLockedValue { $0 = reopened }
        if start { try await self.start() }
    }

    /// Changes what the device syncs as an app changes its sync expressions: stops sync,
    /// clears the store when `clear` says so (as Amplify advises when a filter narrows: what the
    /// store holds stays otherwise, in the new scope or not), and starts sync again, which runs
    /// a full sync of every model whose expression changed.
    public func changeSyncExpressions(to filters: [String: JSONValue], clear: Bool) async throws {
        await store.stop()
        if clear { try await store.clear() }
        try scope.change(to: filters)
        timeline.record(name, .event, "sync expressions now \(JSONValue.object(filters).jsonText)" + (clear ? ", the store cleared" : ""))
        try await start()
    }

    /// Stops syncing for good (the simulation's end).
    func close() async {
        let opened = current.withLockedValue { $0 }
        // The link first: a request in flight fails at once instead of keeping the stop waiting.
        await link.close()
        await opened.store.stop()
        opened.recording.cancel()
    }

    // MARK: - Schema

    private func model(_ name: String) throws -> ModelSchema {
        guard let model = models.schema.model(named: name) else {
            throw SimulationError("\(name) is not a model of the schema. Models: \(models.schema.models.map(\.name).joined(separator: ", ")).")
        }
        return model
    }

    /// `fields`' values of the model's key fields, all of which must be there.
    static func key(_ fields: Item, of model: ModelSchema) throws -> Item {
        var key: Item = [:]
        for name in model.primaryKey.fields {
            guard let value = fields[name], !value.isNull else {
                throw SimulationError("An item of \(model.name) needs its key field \(name).")
            }
            key[name] = value
        }
        return key
    }
}
