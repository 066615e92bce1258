import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncStorage

extension DynamoDBDataSource {
    /// What one write request asks, read and checked before its transaction.
    struct WriteRequest: Sendable {
        enum Change: Sendable {
            case put(Item)
            case update(@Sendable (Item) throws -> Item)
            case delete
        }

        let table: DynamoDBTable
        let key: Item
        let change: Change
        let condition: (@Sendable (Item) -> Bool)?
        /// Attributes a failed `PutItem` condition ignores when it compares the stored item
        /// with the one it tried to write.
        let equalsIgnore: Set<String>
        /// The client's last known version (`_version`) on a versioned API.
        let sentVersion: Int?
        /// What a failed condition does.
        let onConditionFailure: ConditionCheckFailure

        init(_ operation: String, _ request: JSONValue, table: DynamoDBTable) throws {
            self.table = table
            key = try table.key(request["key"])
            condition = try DynamoDBLanguage.condition(request["condition"], what: "ConditionExpression")
            equalsIgnore = Set(request["condition"]["equalsIgnore"].arrayValue?.compactMap(\.stringValue) ?? [])
            sentVersion = request["_version"].intValue
            onConditionFailure = try ConditionCheckFailure(request["condition"]["conditionalCheckFailedHandler"])
            switch operation {
            case "PutItem":
                var item = try DynamoDBLanguage.plainItem(request["attributeValues"], what: "attributeValues", allowNull: true)
                for (name, value) in key { item[name] = value }
                change = .put(item)
            case "UpdateItem":
                change = .update(try DynamoDBLanguage.update(request["update"], keyAttributes: Set(table.model.primaryKey.fields)))
            default:
                change = .delete
            }
        }
    }

    /// What a write's transaction decided.
    enum WriteOutcome: Sendable {
        case written(Item)
        /// Nothing written, and nothing wrong: a delete of a missing item, a failed put whose
        /// stored item already is what it would write.
        case unchanged(Item?)
        case conditionFailed(Item?)
        case conflict(Item)
    }

    /// `PutItem`, `UpdateItem` or `DeleteItem`: one serialised read-check-write transaction,
    /// and the condition's handler when the condition fails.
    func write(_ operation: String, _ request: JSONValue, context: ResolverContext) async throws -> JSONValue {
        let write = try WriteRequest(operation, request, table: table)
        let outcome = try await commit(write)
        if case .conditionFailed(let existing) = outcome, case .custom(let arn) = write.onConditionFailure {
            return try await resolveConditionFailure(lambdaArn: arn, operation: operation, request: request, existing: existing, context: context)
        }
        return try Self.result(of: outcome, table: table)
    }

    /// Runs one write in its own transaction.
    func commit(_ write: WriteRequest) async throws -> WriteOutcome {
        let handler = environment.sync.handler(for: table.model)
        let now = environment.nowMilliseconds, ttl = environment.sync.tombstoneTTLSeconds
        return try await environment.store.write { tx in try Self.run(write, handler: handler, tx: tx, now: now, tombstoneTTL: ttl) }
    }

    /// The answer to a write: its item (a delete's: the item before it on an API without
    /// conflict detection, the tombstone on a versioned one), or its failure.
    static func result(of outcome: WriteOutcome, table: DynamoDBTable) throws(DataSourceFailure) -> JSONValue {
        switch outcome {
        case .written(let item):
            return .object(item)
        case .unchanged(let item):
            return item.map(JSONValue.object) ?? .null
        case .conditionFailed(let existing):
            if table.versioned {
                // A versioned source's failed condition carries the stored item, as the
                // generated resolvers' does.
                let error = AppSyncError.conditionalCheckFailed()
                throw DataSourceFailure(type: error.errorType.rawValue, message: error.message, data: existing.map(JSONValue.object) ?? .null)
            }
            let error = MutationResolvers.conditionFailed()
            throw DataSourceFailure(type: error.errorType.rawValue, message: error.message)
        case .conflict(let existing):
            throw DataSourceFailure(type: AppSyncErrorType.conflictUnhandled.rawValue, message: "Conflict resolver rejects mutation.", data: .object(existing))
        }
    }

    /// The decision and the commit, inside the write transaction.
    static func run(
        _ write: WriteRequest, handler: ConflictHandlerKind, tx: any ItemWriteTransaction, now: Int, tombstoneTTL: Int
    ) throws -> WriteOutcome {
        let model = write.table.model
        let stored = try tx.get(model, key: write.key)
        let existing = write.table.visible(stored)
        var next: Item?
        switch write.change {
        case .put(let item): next = item
        case .update(let update): next = try update(existing ?? write.key)
        case .delete: next = existing.map { item in item.merging(["_deleted": true]) { _, deleted in deleted } }
        }
        let conditionHolds = write.condition.map { $0(existing ?? [:]) } ?? true
        // A put is a create: its condition (the key being free) is checked before any version.
        if case .put = write.change, !conditionHolds {
            // DynamoDB's re-read: a put whose stored item already is what it writes succeeds.
            if let existing, let next, equal(existing, next, ignoring: write.equalsIgnore.union(metadata)) { return .unchanged(existing) }
            return .conditionFailed(existing)
        }
        if write.table.versioned, let existing, handler != .lastWriterWins, existing["_version"]?.intValue != write.sentVersion {
            // A stale version meets the model's conflict handler before any condition, as the
            // generated resolvers decide.
            switch (handler, write.change) {
            case (.automerge, .put), (.automerge, .update):
                guard conditionHolds else { return .conditionFailed(existing) }
                let ignored = Set(model.primaryKey.fields).union(metadata)
                next = Automerge.merge(existing: existing, incoming: changes(from: existing, to: next ?? existing), ignoring: ignored)
            default:
                return .conflict(existing)
            }
        } else if !conditionHolds {
            return .conditionFailed(existing)
        }
        // A delete of a missing item without a condition against it: nothing to do.
        guard var item = next else { return .unchanged(nil) }
        // Versions keep counting from the stored item, a hidden tombstone's too.
        item["_version"] = stored?["_version"] ?? 0
        if case .put = write.change {
            // A put replaces the item, a tombstone too.
            item["_deleted"] = nil
            item["_ttl"] = nil
        }
        let written = try ItemChange(item: item, touchesUpdatedAt: false).commit(model: model, tx: tx, now: now, tombstoneTTL: tombstoneTTL)
        if case .delete = write.change, !write.table.versioned, let existing { return .written(existing) }
        return .written(written)
    }

    /// The sync metadata the server owns: never compared, never merged.
    static let metadata: Set<String> = ["_version", "_lastChangedAt", "_deleted", "_ttl"]

    /// Whether two items hold the same attributes, `ignoring` some.
    static func equal(_ a: Item, _ b: Item, ignoring: Set<String>) -> Bool {
        a.filter { !ignoring.contains($0.key) } == b.filter { !ignoring.contains($0.key) }
    }

    /// The attributes `next` sets differently from `existing` (removed ones as null), what an
    /// Automerge of a stale write merges.
    static func changes(from existing: Item, to next: Item) -> Item {
        var changes: Item = [:]
        for (name, value) in next where existing[name] != value { changes[name] = value }
        for name in existing.keys where next[name] == nil { changes[name] = .null }
        return changes
    }
}
