import DeltaSyncAuth
import DeltaSyncCore
import DeltaSyncGraphQL
import DeltaSyncRealtime
import DeltaSyncSchema
import DeltaSyncStorage
import Foundation
import NIOConcurrencyHelpers

/// What a test suite controls on a running server: its data (reset, seed, snapshots), its
/// clock, injected faults, and a view of who is connected and what they asked. The fixture
/// API under `/admin/` and the console are this over HTTP; Swift tests reach it as
/// ``DeltaSyncServer/fixture``.
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
    let faults: FaultList
    package let requests: RequestLog
    let store: any ItemStore
    let schema: AmplifySchema
    let tombstoneTTL: Int
    let executor: RequestExecutor
    /// Who the fixture API's own writes run as: the server for its operator, no rule applied.
    let operatorCaller: Caller
    let expiry: ExpiryService
    package let connections: RealtimeConnections
    /// Named checkpoints of the store, kept in memory.
    private let checkpoints = NIOLockedValueBox<[String: any StoreCheckpoint]>([:])

    init(
        clock: FixtureClock, store: any ItemStore, schema: AmplifySchema, tombstoneTTL: Int, executor: RequestExecutor,
        policy: AuthorizationPolicy, expiry: ExpiryService, connections: RealtimeConnections, faults: FaultList, requests: RequestLog
    ) {
        operatorCaller = Caller(.trusted, policy: policy)
        self.clock = clock
        self.store = store
        self.schema = schema
        self.tombstoneTTL = tombstoneTTL
        self.executor = executor
        self.expiry = expiry
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

    /// Everything the store holds, read in one transaction.
    public func snapshot() async throws -> StoreSnapshot {
        try await StoreSnapshot.read(from: store, schema: schema)
    }

    /// Replaces everything the store holds with `snapshot`, in one transaction.
    @discardableResult
    public func restore(_ snapshot: StoreSnapshot) async throws -> [String: Int] {
        try await snapshot.write(to: store, schema: schema)
    }

    /// ``restore(_:)-(StoreSnapshot)`` from a snapshot's JSON text, checked whole first.
    ///
    /// - Throws: ``FixtureInputError`` naming the line and value at fault; nothing is written.
    @discardableResult
    public func restore(_ text: String) async throws -> [String: Int] {
        let json = try Self.parse(text, document: "Snapshot")
        return try await restore(try StoreSnapshot(json: json, text: text, schema: schema, tombstoneTTL: tombstoneTTL))
    }

    /// Everything the store holds as a database file's bytes (SQLite's own format), which
    /// ``restore(database:)`` of a server with the same schema puts back in a fraction of a
    /// second: the fast form of a snapshot kept between runs.
    public func snapshotDatabase() async throws -> Data {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await store.export(toFile: path)
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    /// Replaces everything the store holds with a ``snapshotDatabase()``, checked first.
    ///
    /// - Throws: ``AppSyncError`` (`BadRequest`) for bytes that are not such a snapshot or one
    ///   of another schema; nothing changes then.
    public func restore(database data: Data) async throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try data.write(to: URL(fileURLWithPath: path))
        try await store.restore(fromFile: path)
    }

    private static func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("deltasync-snapshot-\(UUID().uuidString).sqlite").path
    }

    // MARK: - Named snapshots

    /// Keeps a copy of everything the store holds under `name` (in memory, replacing one of the
    /// same name), which ``restoreSnapshot(named:)`` puts back in milliseconds: set up once, then
    /// restore before each test.
    public func saveSnapshot(named name: String) async throws {
        let checkpoint = try await store.checkpoint()
        checkpoints.withLockedValue { $0[name] = checkpoint }
    }

    /// Puts back the snapshot saved under `name`: items, delta log, conflicts. The change
    /// clock stays where it is, so later changes are later than every earlier one.
    ///
    /// - Throws: ``AppSyncError`` (`BadRequest`) when no snapshot has that name.
    public func restoreSnapshot(named name: String) async throws {
        guard let checkpoint = checkpoints.withLockedValue({ $0[name] }) else {
            throw AppSyncError(.badRequest, "No snapshot is saved as '\(name)'; save one first (PUT /admin/snapshots/\(name)).")
        }
        try await store.restore(checkpoint)
    }

    /// The names of the saved snapshots.
    public var snapshotNames: [String] { checkpoints.withLockedValue { $0.keys.sorted() } }

    /// Forgets a saved snapshot; `false` when none had that name.
    @discardableResult
    public func deleteSnapshot(named name: String) -> Bool {
        checkpoints.withLockedValue { $0.removeValue(forKey: name) != nil }
    }

    /// Removes the deltas and tombstones that expired by ``clock``, now.
    @discardableResult
    public func purge() async -> PurgeResult {
        await expiry.purgeOnce()
    }

    /// Changes an item as another device would: `fields` (with the key) merged into the stored
    /// item at its current `_version`, or created when missing; `"_deleted": true` deletes it.
    /// The change goes through the API's own mutation, so subscribers receive it.
    ///
    /// - Returns: the item as the mutation answered it.
    /// - Throws: ``AppSyncError`` when the model is unknown or the mutation fails.
    public func change(model name: String, fields: Item) async throws -> JSONValue {
        let model = try model(named: name)
        // A device cannot set an implicit owner field (the generated inputs lack it), so a
        // change as a device makes it cannot either; seeded items carry any owner.
        if let implicit = model.implicitOwnerFields.sorted().first(where: { fields[$0] != nil }) {
            throw AppSyncError(
                .badRequest,
                "\(name).\(implicit) is an implicit owner field: the server fills it from the caller's identity and no mutation input has it. Seed the item with its owner (POST /admin/seed), or declare '\(implicit): String' in the schema to let callers set it.")
        }
        var key: Item = [:]
        for field in model.primaryKey.fields {
            guard let value = fields[field], !value.isNull else {
                throw AppSyncError(.badRequest, "The change needs \(name)'s key field '\(field)'.")
            }
            key[field] = value
        }
        let stored = try await store.read { [key] tx in try tx.get(model, key: key) }
        var input = fields.filter { $0.key != "_deleted" && $0.key != "_version" }
        let field: String?
        let inputType: String
        if fields["_deleted"] == true {
            guard stored != nil else { throw AppSyncError(.badRequest, "There is no \(name) with key \(JSONValue.object(key).jsonText) to delete.") }
            input = key
            (field, inputType) = (model.operations.delete, "Delete\(name)Input")
        } else if stored != nil {
            (field, inputType) = (model.operations.update, "Update\(name)Input")
        } else {
            (field, inputType) = (model.operations.create, "Create\(name)Input")
        }
        if let version = stored?["_version"], inputType != "Create\(name)Input" { input["_version"] = version }
        guard let field else {
            throw AppSyncError(.badRequest, "\(name) has no \(inputType.dropLast(5).dropLast(name.count).lowercased()) mutation in this schema.")
        }
        let document = "mutation FixtureChange($input: \(inputType)!) { \(field)(input: $input) { \(schema.syncSelection(of: model)) } }"
        let request = OperationRequest(query: document, variables: ["input": .object(input)], operationName: "FixtureChange")
        let response = try JSONValue(parsing: String(decoding: await executor.execute(request, as: operatorCaller), as: UTF8.self))
        if let error = response["errors"].arrayValue?.first {
            throw AppSyncError(
                AppSyncErrorType(rawValue: error["errorType"].stringValue ?? "BadRequest"),
                error["message"].stringValue ?? "The change failed.")
        }
        return response["data"][field]
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
