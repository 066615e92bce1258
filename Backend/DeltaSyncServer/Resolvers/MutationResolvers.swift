import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncStorage
import Foundation
import GraphQL

/// `create`, `update` and `delete` on a versioned data source: each runs as one serialised
/// read-check-write transaction, so a version or condition is never checked against an item
/// that another writer changes before the write lands.
struct MutationResolvers: Sendable {
    let environment: ResolverEnvironment

    /// AppSync keeps tombstones for the base table TTL (Amplify's default: 30 days).
    static let tombstoneTTLSeconds = 30 * 24 * 3600

    /// Fields only the server writes; an input that sets them is a `BadRequest` (spec §4).
    static let serverOwnedFields: Set<String> = ["_lastChangedAt", "_deleted", "_ttl"]

    func create(_ model: Model, args: Map) async throws -> ItemObject {
        let input = try Self.input(args)
        let condition = try QueryPredicate(filter: args.argument("condition") ?? .null)
        var item: Item = [:]
        for field in model.storedFields {
            if let value = input[field.name], !value.isNull {
                item[field.name] = value
            } else if let value = field.defaultValue {
                item[field.name] = value
            }
        }
        if model.primaryKey.partitionField == "id", item["id"] == nil {
            item["id"] = .string(UUID().uuidString.lowercased())
        }
        let now = environment.nowISO8601
        if let createdAt = model.timestamps.createdAt, item[createdAt] == nil { item[createdAt] = .string(now) }
        if let updatedAt = model.timestamps.updatedAt, item[updatedAt] == nil {
            item[updatedAt] = model.timestamps.createdAt.flatMap { item[$0] } ?? .string(now)
        }
        try Self.requireNonNullFields(model, item)
        item["__typename"] = .string(model.name)
        item["_version"] = 1
        item["_lastChangedAt"] = .int(environment.nowMilliseconds)
        let key = try Self.key(model, from: item)
        let stored = item
        try await environment.store.write { tx in
            // Create is a conditional put: `attribute_not_exists(key)` AND the user's condition.
            guard try tx.get(model, key: key) == nil, condition.matches([:]) else {
                throw AppSyncError.conditionalCheckFailed()
            }
            try tx.put(model, stored)
        }
        return ItemObject(item: item)
    }

    func update(_ model: Model, args: Map) async throws -> ItemObject {
        let input = try Self.input(args)
        let condition = try QueryPredicate(filter: args.argument("condition") ?? .null)
        let key = try Self.key(model, from: input)
        let stored = model.storedFields.map(\.name)
        let now = environment.nowISO8601
        let nowMilliseconds = environment.nowMilliseconds
        let updated = try await environment.store.write { tx -> Item in
            let existing = try Self.existing(tx, model, key, input: input, condition: condition)
            var item = existing
            for name in stored where !model.primaryKey.fields.contains(name) {
                guard let value = input[name] else { continue }
                item[name] = value.isNull ? nil : value
            }
            if let updatedAt = model.timestamps.updatedAt, input[updatedAt] == nil || input[updatedAt] == .null {
                item[updatedAt] = .string(now)
            }
            try Self.requireNonNullFields(model, item)
            item["_version"] = .int((existing["_version"]?.intValue ?? 0) + 1)
            item["_lastChangedAt"] = .int(nowMilliseconds)
            try tx.put(model, item)
            return item
        }
        return ItemObject(item: updated)
    }

    /// Delete writes a tombstone: the item stays, `_deleted: true`, until the tombstone TTL.
    func delete(_ model: Model, args: Map) async throws -> ItemObject {
        let input = try Self.input(args)
        let condition = try QueryPredicate(filter: args.argument("condition") ?? .null)
        let key = try Self.key(model, from: input)
        let nowMilliseconds = environment.nowMilliseconds
        let deleted = try await environment.store.write { tx -> Item in
            let existing = try Self.existing(tx, model, key, input: input, condition: condition)
            var item = existing
            item["_deleted"] = true
            item["_version"] = .int((existing["_version"]?.intValue ?? 0) + 1)
            item["_lastChangedAt"] = .int(nowMilliseconds)
            item["_ttl"] = .int(nowMilliseconds / 1000 + Self.tombstoneTTLSeconds)
            try tx.put(model, item)
            return item
        }
        return ItemObject(item: deleted)
    }

    // MARK: - Checks

    private static func input(_ args: Map) throws(AppSyncError) -> Item {
        guard let input = args.argument("input")?.objectValue else {
            throw AppSyncError(.invalidArgument, "The 'input' argument must be an object.")
        }
        if let field = input.keys.first(where: serverOwnedFields.contains) {
            throw AppSyncError(.badRequest, "The field '\(field)' is managed by the server and cannot be set.")
        }
        return input
    }

    private static func key(_ model: Model, from values: Item) throws(AppSyncError) -> Item {
        var key: Item = [:]
        for field in model.primaryKey.fields {
            guard let value = values[field], !value.isNull else {
                throw AppSyncError(.invalidArgument, "The key field '\(field)' of \(model.name) is required.")
            }
            key[field] = value
        }
        return key
    }

    /// The stored item an update or delete applies to, after the checks AppSync runs in order:
    /// the key exists, the version matches, then the user's condition holds.
    private static func existing(
        _ tx: any ItemWriteTransaction, _ model: Model, _ key: Item, input: Item, condition: QueryPredicate
    ) throws -> Item {
        guard let existing = try tx.get(model, key: key) else {
            // `attribute_exists(key)` fails on a missing item, exactly like a false condition.
            throw AppSyncError.conditionalCheckFailed()
        }
        try checkVersion(input, against: existing)
        guard condition.matches(existing) else { throw AppSyncError.conditionalCheckFailed(data: .object(existing)) }
        return existing
    }

    /// Versioned data sources compare the client's `_version` (missing = 0) with the stored one.
    private static func checkVersion(_ input: Item, against existing: Item) throws(AppSyncError) {
        let sent = input["_version"]?.intValue ?? 0
        guard sent == existing["_version"]?.intValue else {
            throw AppSyncError(.conflictUnhandled, "Conflict resolver rejects mutation.", data: .object(existing))
        }
    }

    private static func requireNonNullFields(_ model: Model, _ item: Item) throws(AppSyncError) {
        for field in model.storedFields where field.isRequired && (item[field.name] ?? .null).isNull {
            throw AppSyncError(
                .validation, "The field '\(field.name)' of \(model.name) is non-nullable and cannot be null or missing.")
        }
    }
}
