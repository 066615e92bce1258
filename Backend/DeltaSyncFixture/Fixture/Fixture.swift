import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncStorage
import Foundation
import NIOConcurrencyHelpers

/// What a test suite controls on a running server: its data (reset, seed, snapshots), its
/// clock, injected faults, and a view of who is connected and what they asked. The fixture
/// API under `/admin/` (``FixtureRoutes``) and the console are this over HTTP; Swift tests
/// reach it as `DeltaSyncServer.fixture`.
///
/// ```swift
/// let fixture = server.fixture
/// try await fixture.reset()
/// try await fixture.seed(#"{"Post": [{"id": "p1", "title": "Seeded", "_version": 3}]}"#)
/// let snapshot = try await fixture.snapshot()
/// fixture.clock.advance(by: .seconds(3600))
/// _ = fixture.addFault(.conflict(field: "updatePost"))
/// try await fixture.restore(snapshot)
/// ```
public final class Fixture: Sendable {
    /// The server's clock: freeze, advance, set, back to real time.
    public let clock: FixtureClock
    /// The active faults, which the server's request path asks.
    package let faults: FaultList
    /// The recent requests, which the server's request path writes.
    package let requests: RequestLog
    let store: any ItemStore
    let schema: AmplifySchema
    let tombstoneTTL: Int
    /// What the fixture does through the server: its own mutations, purging now.
    let host: any FixtureHost
    /// The server's realtime connections.
    package let connections: any FixtureConnections
    /// Named checkpoints of the store, kept in memory.
    let checkpoints = NIOLockedValueBox<[String: any StoreCheckpoint]>([:])
    private let published = NIOLockedValueBox<String?>(nil)

    /// - Parameters:
    ///   - tombstoneTTL: seconds a seeded tombstone is kept when it does not say (`_ttl`).
    ///   - host: the server the fixture controls.
    package init(
        clock: FixtureClock, store: any ItemStore, schema: AmplifySchema, tombstoneTTL: Int, host: any FixtureHost,
        connections: any FixtureConnections, faults: FaultList, requests: RequestLog
    ) {
        self.clock = clock
        self.store = store
        self.schema = schema
        self.tombstoneTTL = tombstoneTTL
        self.host = host
        self.connections = connections
        self.faults = faults
        self.requests = requests
    }

    // MARK: - Data

    /// Removes the items (tombstones included), delta log and conflict records of the named
    /// models, or of every model; returns the models reset.
    ///
    /// - Throws: ``AppSyncError`` (`BadRequest`) for a name the schema has no model for.
    @discardableResult
    public func reset(models names: [String]? = nil) async throws -> [String] {
        let models = try names.map { try $0.map(model(named:)) } ?? schema.models
        let everything = names == nil
        try await store.writeAlone { tx in
            if everything { try tx.removeSyncLog(of: nil) }
            for model in models {
                try tx.removeAll(model)
                if !everything { try tx.removeSyncLog(of: model.name) }
            }
        }
        return models.map(\.name)
    }

    /// Writes the items of a seed document, `{"Post": [{...}, ...], "Comment": [...]}`, with
    /// their metadata (`_version`, `_deleted`, `_lastChangedAt`, `_ttl`; defaults as a
    /// create would give them), each with its delta log entry. All or nothing: a document
    /// with one bad value writes no item.
    ///
    /// - Throws: ``FixtureInputError`` naming the line and value at fault.
    /// - Returns: how many items of each model were written.
    @discardableResult
    public func seed(_ text: String) async throws -> [String: Int] {
        try await seed(try Self.parse(text, document: "Seed"), text: text)
    }

    /// ``seed(_:)-(String)`` for a JSON value already parsed; `text`, when it came from text,
    /// gives errors their line.
    @discardableResult
    public func seed(_ json: JSONValue, text: String? = nil) async throws -> [String: Int] {
        let batches = try items(of: json, text: text)
        return try await store.writeAlone { tx in
            var counts: [String: Int] = [:]
            var latest = 0
            for (model, items) in batches {
                for item in items {
                    let changedAt = item["_lastChangedAt"]?.intValue ?? 0
                    try tx.put(model, item)
                    try tx.appendDelta(model, item: item, changedAt: changedAt)
                    latest = max(latest, changedAt)
                }
                counts[model.name, default: 0] += items.count
            }
            // Later changes must be later than every seeded one.
            _ = try tx.stampChange(now: latest)
            return counts
        }
    }

    /// Checks every item of a seed document before anything is written.
    private func items(of json: JSONValue, text: String?) throws(FixtureInputError) -> [(ModelSchema, [Item])] {
        guard case .object(let byModel) = json else {
            throw FixtureInputError(
                document: "Seed", line: text == nil ? nil : 1, path: [],
                reason: "a seed is a JSON object of item lists by model name: {\"Post\": [{...}]}.")
        }
        let now = Int((clock.now().timeIntervalSince1970 * 1000).rounded())
        let checker = FixtureItem(schema: schema, now: now, tombstoneTTL: tombstoneTTL)
        var batches: [(ModelSchema, [Item])] = []
        do throws(FixtureValueError) {
            for name in byModel.keys.sorted() {
                guard let model = schema.model(named: name) else {
                    throw FixtureValueError(
                        path: [.key(name)],
                        reason: "the schema has no model \(name); it has \(schema.models.map(\.name).joined(separator: ", ")).")
                }
                guard case .array(let list)? = byModel[name] else {
                    throw FixtureValueError(path: [.key(name)], reason: "expected a list of \(name) items.")
                }
                var items: [Item] = []
                for (index, item) in list.enumerated() {
                    items.append(try checker.item(item, of: model, at: [.key(name), .index(index)]))
                }
                batches.append((model, items))
            }
        } catch {
            throw error.located(document: "Seed", in: text)
        }
        return batches
    }

    // MARK: - Time

    /// Removes the deltas and tombstones that expired by ``clock``, now.
    @discardableResult
    public func purge() async -> PurgeResult {
        await host.purgeExpired()
    }

    // MARK: - Faults

    /// Starts a fault; the answer carries its `id`.
    @discardableResult
    public func addFault(_ fault: Fault) -> Fault {
        faults.add(fault)
    }

    /// The active faults.
    public var activeFaults: [Fault] { faults.all }

    /// Clears the fault with `id`, or every fault; returns how many were cleared.
    @discardableResult
    public func clearFaults(id: String? = nil) -> Int {
        faults.clear(id: id)
    }

    // MARK: - Simulations

    /// The timeline of the simulation run against this server (an HTML page,
    /// `SimulationTimeline.html`), which the console shows; `nil` until one is published.
    public var simulationTimeline: String? { published.withLockedValue { $0 } }

    /// Shows a simulation's timeline in the console (`deltasync simulate --console`).
    public func publishSimulationTimeline(_ html: String) {
        published.withLockedValue { $0 = html }
    }

    // MARK: - Connections

    /// Closes every realtime connection: with 1001 (going away), or with `drop` by closing the
    /// socket without a close frame, as a lost network would.
    @discardableResult
    public func closeConnections(drop: Bool = false) -> Int {
        connections.closeAll(drop: drop)
    }

    // MARK: -

    func model(named name: String) throws -> ModelSchema {
        guard let model = schema.model(named: name) else {
            throw AppSyncError(
                .badRequest, "The schema has no model \(name); it has \(schema.models.map(\.name).joined(separator: ", ")).")
        }
        return model
    }

    /// JSON text, or a ``FixtureInputError`` with the line of the syntax error.
    static func parse(_ text: String, document: String) throws(FixtureInputError) -> JSONValue {
        do {
            return try JSONValue(parsing: text)
        } catch let failure as JSONParser.Failure {
            throw FixtureInputError(
                document: document, line: JSONTextLocation.line(ofByte: failure.offset, in: text), path: [],
                reason: "this is not JSON: \(failure.reason).")
        } catch {
            throw FixtureInputError(document: document, line: nil, path: [], reason: "this is not JSON: \(error).")
        }
    }
}
