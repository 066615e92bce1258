import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncStorage

/// Everything a store holds for a schema: each model's items (tombstones included) and delta
/// log, the conflict log and the change clock. A suite exports one after setting up and
/// imports it before each test, which restores that state exactly in milliseconds.
///
/// ```swift
/// let snapshot = try await server.fixture.snapshot()
/// try await server.fixture.restore(snapshot)
/// ```
///
/// As JSON (the fixture API's `GET`/`PUT /admin/snapshot`, `deltasync export`/`import`):
/// `{"format":"deltasync-snapshot","version":1,"changeClock":MS,"models":{"Post":{"items":[...],
/// "deltas":[{"changedAt":MS,"item":{...}}]}},"conflicts":[...]}`.
public struct StoreSnapshot: Sendable, Equatable {
    public struct ModelData: Sendable, Equatable {
        /// Stored items with their metadata, in primary key order.
        public var items: [Item]
        /// The delta log, oldest first.
        public var deltas: [Delta]

        public init(items: [Item] = [], deltas: [Delta] = []) {
            self.items = items
            self.deltas = deltas
        }
    }

    public struct Delta: Sendable, Equatable {
        public var changedAt: Int
        public var item: Item

        public init(changedAt: Int, item: Item) {
            self.changedAt = changedAt
            self.item = item
        }
    }

    static let format = "deltasync-snapshot"
    static let version = 1

    /// The last change time the store handed out (epoch ms).
    public var changeClock: Int
    /// By model name.
    public var models: [String: ModelData]
    /// Oldest first.
    public var conflicts: [ConflictRecord]

    public init(changeClock: Int, models: [String: ModelData], conflicts: [ConflictRecord]) {
        self.changeClock = changeClock
        self.models = models
        self.conflicts = conflicts
    }

    // MARK: - Reading and writing a store

    /// Reads the whole store in one read transaction (one consistent state).
    static func read(from store: any ItemStore, schema: AmplifySchema) async throws -> StoreSnapshot {
        try await store.read { tx in
            var models: [String: ModelData] = [:]
            for model in schema.models {
                var data = ModelData()
                data.items = try tx.query(model, ItemQuery(limit: Int.max)).items
                let deltas = try tx.deltas(model, DeltaQuery(since: Int.min, limit: Int.max)).items
                data.deltas = deltas.map { Delta(changedAt: $0["_lastChangedAt"]?.intValue ?? 0, item: $0) }
                models[model.name] = data
            }
            let conflicts = try tx.conflicts(model: nil, limit: Int.max)
            return StoreSnapshot(changeClock: try tx.changeClock(), models: models, conflicts: conflicts.reversed())
        }
    }

    /// Replaces everything the store holds with the snapshot, in one write transaction: a
    /// reader sees the state before or after, never a mix.
    ///
    /// - Returns: how many items each model now has.
    @discardableResult
    func write(to store: any ItemStore, schema: AmplifySchema) async throws -> [String: Int] {
        let snapshot = self
        return try await store.writeAlone { tx in
            try tx.removeSyncLog(of: nil)
            var counts: [String: Int] = [:]
            for model in schema.models {
                try tx.removeAll(model)
                let data = snapshot.models[model.name] ?? ModelData()
                for item in data.items { try tx.put(model, item) }
                for delta in data.deltas { try tx.appendDelta(model, item: delta.item, changedAt: delta.changedAt) }
                counts[model.name] = data.items.count
            }
            for record in snapshot.conflicts { try tx.recordConflict(record) }
            _ = try tx.stampChange(now: snapshot.changeClock)
            return counts
        }
    }

    // MARK: - JSON

    public var json: JSONValue {
        var models: [String: JSONValue] = [:]
        for (name, data) in self.models {
            models[name] = [
                "items": .array(data.items.map(JSONValue.object)),
                "deltas": .array(data.deltas.map { ["changedAt": .int($0.changedAt), "item": .object($0.item)] }),
            ]
        }
        return [
            "format": .string(Self.format), "version": .int(Self.version), "changeClock": .int(changeClock),
            "models": .object(models), "conflicts": .array(conflicts.map(\.json)),
        ]
    }

    /// Reads and checks a snapshot's JSON against `schema`; `text` (when the JSON came from
    /// text) gives errors their line.
    ///
    /// - Throws: ``FixtureInputError`` for the first value at fault.
    package init(json: JSONValue, text: String?, schema: AmplifySchema, tombstoneTTL: Int) throws(FixtureInputError) {
        do throws(FixtureValueError) {
            self = try Self.parse(json, schema: schema, tombstoneTTL: tombstoneTTL)
        } catch {
            throw error.located(document: "Snapshot", in: text)
        }
    }

    private static func parse(_ json: JSONValue, schema: AmplifySchema, tombstoneTTL: Int) throws(FixtureValueError) -> StoreSnapshot {
        guard case .object(let root) = json else {
            throw FixtureValueError(path: [], reason: "a snapshot is a JSON object, as GET /admin/snapshot or deltasync export writes it.")
        }
        guard root["format"]?.stringValue == format else {
            throw FixtureValueError(path: [.key("format")], reason: "expected \"\(format)\"; this is not a DeltaSync snapshot.")
        }
        guard root["version"]?.intValue == version else {
            throw FixtureValueError(
                path: [.key("version")], reason: "this DeltaSync reads snapshot version \(version), got \(root["version"]?.jsonText ?? "none").")
        }
        guard let clock = root["changeClock"]?.intValue, clock >= 0 else {
            throw FixtureValueError(path: [.key("changeClock")], reason: "expected epoch milliseconds, a whole number.")
        }
        guard case .object(let modelsJSON)? = root["models"] else {
            throw FixtureValueError(path: [.key("models")], reason: "expected an object of models by name.")
        }
        var models: [String: ModelData] = [:]
        for name in modelsJSON.keys.sorted() {
            let path: [JSONTextLocation.Step] = [.key("models"), .key(name)]
            guard let model = schema.model(named: name) else {
                throw FixtureValueError(path: path, reason: "the schema has no model \(name).")
            }
            guard case .object(let data)? = modelsJSON[name] else {
                throw FixtureValueError(path: path, reason: "expected {\"items\": [...], \"deltas\": [...]}.")
            }
            // Nothing defaults here: an exported item has all its metadata.
            let items = FixtureItem(schema: schema, now: 0, tombstoneTTL: tombstoneTTL)
            var parsed = ModelData()
            for (index, item) in try list(data["items"], at: path + [.key("items")]).enumerated() {
                parsed.items.append(try items.item(item, of: model, at: path + [.key("items"), .index(index)]))
            }
            for (index, delta) in try list(data["deltas"], at: path + [.key("deltas")]).enumerated() {
                let at = path + [.key("deltas"), .index(index)]
                guard case .object(let entry) = delta, let changedAt = entry["changedAt"]?.intValue, let item = entry["item"] else {
                    throw FixtureValueError(path: at, reason: "expected {\"changedAt\": epoch ms, \"item\": {...}}.")
                }
                parsed.deltas.append(Delta(changedAt: changedAt, item: try items.item(item, of: model, at: at + [.key("item")])))
            }
            models[name] = parsed
        }
        var conflicts: [ConflictRecord] = []
        for (index, record) in try list(root["conflicts"], at: [.key("conflicts")]).enumerated() {
            conflicts.append(try ConflictRecord(json: record, at: [.key("conflicts"), .index(index)]))
        }
        return StoreSnapshot(changeClock: clock, models: models, conflicts: conflicts)
    }

    private static func list(_ value: JSONValue?, at path: [JSONTextLocation.Step]) throws(FixtureValueError) -> [JSONValue] {
        switch value {
        case nil, .null?: return []
        case .array(let list)?: return list
        case let other?: throw FixtureValueError(path: path, reason: "expected a list, got \(other.jsonText.prefix(60)).")
        }
    }
}
