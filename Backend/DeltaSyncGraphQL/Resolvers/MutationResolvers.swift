import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncStorage
import Foundation
import GraphQL

/// `create`, `update` and `delete` on a versioned data source (and, through
/// ``plainChange(_:args:field:isDelete:access:)``, on an API without conflict detection). Each write is one serialised
/// read-check-write transaction that also stamps the change time and appends the delta log
/// entry, so a version or condition is never checked against an item another writer changes
/// before the write lands, and a change is never visible without its delta.
struct MutationResolvers: Sendable {
    let environment: ResolverEnvironment
    /// Plans a failed mutation's error data.
    let planner: ItemPlanner

    /// Fields only the server writes; an input that sets them is a `BadRequest` (spec §4).
    static let serverOwnedFields: Set<String> = ["_lastChangedAt", "_deleted", "_ttl"]
    /// How often a Lambda-resolved write is retried when the item changed meanwhile.
    static let maxConflictAttempts = 5

    /// - Parameter access: what the caller may create; owner fields the input leaves out are
    ///   filled with the caller's identity, and a given owner must be the caller.
    func create(_ model: ModelSchema, args: Map, field: MutationField, access: RootAccess) async throws -> ModelObject {
        try access.require()
        let versioned = environment.schema.isVersioned
        switch environment.faults?.take(for: field.name) {
        case .error(let error)?: throw error
        // A create has no stored item to send back.
        case .conflict?:
            throw versioned ? AppSyncError(.conflictUnhandled, "Conflict resolver rejects mutation.") : Self.conditionFailed()
        case nil: break
        }
        let given = try MutationInput.item(args)
        let input = try access.creating(given)
        // Field rules judge the fields the caller wrote (not an owner filled in for them), on
        // the item as it will be stored.
        try access.requireFieldWrites(given, stored: input)
        let condition = try environment.predicate(args.argument("condition"))
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
        try MutationInput.requireNonNullFields(model, item, ignoringTimestamps: true)
        item["__typename"] = .string(model.name)
        item["_version"] = 1
        let key = try MutationInput.key(model, from: item)
        let draft = item
        let now = environment.nowMilliseconds
        // Create is a conditional put: `attribute_not_exists(key)` AND the user's condition,
        // which has no stored item to read.
        // Made only when it is thrown: the plain error's request ID costs 52 random draws.
        let failed = { versioned ? AppSyncError.conditionalCheckFailed() : Self.conditionFailed() }
        guard condition.matches([:]) else { throw failed() }
        let build: @Sendable (Int) throws -> Item = { changedAt in
            var item = draft
            let stamp = JSONValue.string(AWSDateTimeFormat.string(fromMilliseconds: changedAt))
            if let createdAt = model.timestamps.createdAt, item[createdAt] == nil { item[createdAt] = stamp }
            if let updatedAt = model.timestamps.updatedAt, item[updatedAt] == nil {
                item[updatedAt] = model.timestamps.createdAt.flatMap { item[$0] } ?? stamp
            }
            item["_lastChangedAt"] = .int(changedAt)
            return item
        }
        if let created = try await environment.store.insert(model, key: key, now: now, build) {
            return ModelObject(item: created)
        }
        // Without conflict detection a delete is physical: its hidden tombstone does not hold the key.
        if !versioned, let created = try await replacingTombstone(model, key: key, now: now, build) {
            return ModelObject(item: created)
        }
        throw failed()
    }

    func update(_ model: ModelSchema, args: Map, field: MutationField, access: RootAccess) async throws -> ModelObject {
        guard environment.schema.isVersioned else {
            return try await plainChange(model, args: args, field: field, isDelete: false, access: access)
        }
        return try await change(model, args: args, field: field, isDelete: false, access: access)
    }

    /// Delete writes a tombstone: the item stays, `_deleted: true`, until the tombstone TTL.
    /// Without conflict detection the tombstone is hidden and the old item is the answer.
    func delete(_ model: ModelSchema, args: Map, field: MutationField, access: RootAccess) async throws -> ModelObject {
        guard environment.schema.isVersioned else {
            return try await plainChange(model, args: args, field: field, isDelete: true, access: access)
        }
        return try await change(model, args: args, field: field, isDelete: true, access: access)
    }

    // MARK: - Update and delete

    /// What the write transaction decided.
    private enum Step: Sendable {
        case written(Item)
        case merged(Item, existing: Item)
        case rejected(existing: Item)
        /// The condition failed on this stored item.
        case conditionFailed(existing: Item)
        case askLambda(existing: Item)
        /// The item changed between the Lambda's decision and its write: decide again.
        case retry
    }

    private func change(
        _ model: ModelSchema, args: Map, field: MutationField, isDelete: Bool, access: RootAccess
    ) async throws -> ModelObject {
        try access.require()
        let input = try MutationInput.item(args)
        let condition = try environment.predicate(args.argument("condition"))
        let key = try MutationInput.key(model, from: input)
        let handler = environment.sync.handler(for: model)
        let sent = input["_version"]?.intValue ?? 0
        let tombstoneTTL = environment.sync.tombstoneTTLSeconds
        let fault = environment.faults?.take(for: field.name)
        if case .error(let error)? = fault { throw error }

        for _ in 0..<Self.maxConflictAttempts {
            let now = environment.nowMilliseconds
            let step = try await environment.store.write { tx -> Step in
                guard let existing = try tx.get(model, key: key) else {
                    // Owner rules compare the stored owner, which a missing item lacks.
                    if access.restriction != nil { throw access.denial }
                    // `attribute_exists(key)` fails on a missing item, exactly like a false condition.
                    throw AppSyncError.conditionalCheckFailed()
                }
                // The stored owner decides, not the input's (Amplify reads the item first).
                try access.require(existing)
                try access.requireFieldWrites(input, stored: existing)
                try access.requireReadable(condition, of: existing, model: model)
                if fault == .conflict { return .rejected(existing: existing) }
                // The write as sent, on the stored item: when its version is current, and always
                // without conflict detection (`lastWriterWins`).
                if sent == existing["_version"]?.intValue || handler == .lastWriterWins {
                    guard condition.matches(existing) else {
                        return .conditionFailed(existing: existing)
                    }
                    let next =
                        isDelete
                        ? ItemChange.tombstone(existing) : try ItemChange.applying(input, to: existing, model: model, merge: false)
                    return .written(try next.commit(model: model, tx: tx, now: now, tombstoneTTL: tombstoneTTL))
                }
                switch handler {
                // `lastWriterWins` never gets here: it wrote above.
                case .optimisticConcurrency, .lastWriterWins:
                    return .rejected(existing: existing)
                case .automerge:
                    // Automerge never merges a delete: a stale delete is rejected.
                    guard !isDelete else { return .rejected(existing: existing) }
                    guard condition.matches(existing) else {
                        return .conditionFailed(existing: existing)
                    }
                    let merged = try ItemChange.applying(input, to: existing, model: model, merge: true)
                    return .merged(
                        try merged.commit(model: model, tx: tx, now: now, tombstoneTTL: tombstoneTTL),
                        existing: existing)
                case .lambda:
                    return .askLambda(existing: existing)
                }
            }
            switch step {
            case .written(let item):
                return ModelObject(item: item)
            case .merged(let item, let existing):
                await record(model, key, field, sent, existing, handler, "merged", item["_version"]?.intValue)
                return ModelObject(item: item)
            case .rejected(let existing):
                await record(model, key, field, sent, existing, handler, "rejected", nil)
                throw AppSyncError(
                    .conflictUnhandled, "Conflict resolver rejects mutation.",
                    data: await errorData(existing, model, field, access))
            case .conditionFailed(let existing):
                throw AppSyncError.conditionalCheckFailed(
                    data: await errorData(existing, model, field, access))
            case .askLambda(let existing):
                let decided = try await decideWithLambda(
                    model, key: key, input: input, args: args, field: field, existing: existing, isDelete: isDelete,
                    access: access)
                if let item = decided { return ModelObject(item: item) }
            case .retry:
                continue
            }
        }
        throw AppSyncError(
            .maxConflicts, "The item kept changing while its conflict was being resolved; retry the mutation.")
    }

    /// Calls the Lambda handler outside any transaction, then writes its decision only if the
    /// item is still the one it decided on. `nil` means "changed meanwhile, decide again".
    private func decideWithLambda(
        _ model: ModelSchema, key: Item, input: Item, args: Map, field: MutationField, existing: Item, isDelete: Bool,
        access: RootAccess
    ) async throws -> Item? {
        let sent = input["_version"]?.intValue ?? 0
        guard let lambda = environment.sync.lambda else {
            await record(model, key, field, sent, existing, .lambda, "error: no handler configured", nil)
            throw AppSyncError(
                .conflictError,
                "\(model.name) uses the LAMBDA conflict handler, but none is configured: start the server with --lambda-url.")
        }
        let preview = isDelete ? existing : try ItemChange.applying(input, to: existing, model: model, merge: false).item
        let request = LambdaConflictRequest(
            newItem: .object(preview), existingItem: .object(existing),
            arguments: JSONValue(args),
            resolver: [
                "tableName": .string(model.name), "awsRegion": "local", "parentType": "Mutation",
                "field": .string(field.name),
            ])
        let decision: LambdaConflictResponse
        do {
            decision = try await lambda(request)
        } catch {
            let failure: AppSyncError
            if let appSync = error as? AppSyncError, appSync.errorType == .conflictError {
                failure = appSync
            } else {
                failure = AppSyncError(.conflictError, "The conflict handler failed: \(error).")
            }
            await record(model, key, field, sent, existing, .lambda, "error: \(failure.message)", nil)
            throw failure
        }
        let next: ItemChange
        let outcome: String
        switch (decision, isDelete) {
        case (.reject, _):
            await record(model, key, field, sent, existing, .lambda, "rejected", nil)
            throw AppSyncError(
                .conflictUnhandled, "Conflict resolver rejects mutation.",
                data: await errorData(existing, model, field, access))
        case (.resolve(let resolved), false):
            next = ItemChange.resolved(resolved, over: existing, model: model)
            outcome = "resolved"
        case (.remove, true):
            next = ItemChange.tombstone(existing)
            outcome = "removed"
        case (.resolve, true), (.remove, false):
            let answer = isDelete ? "RESOLVE" : "REMOVE"
            let failure = AppSyncError(
                .conflictError,
                "The conflict handler answered \(answer), which does not apply to \(field.name); answer \(isDelete ? "REMOVE" : "RESOLVE") or REJECT.")
            await record(model, key, field, sent, existing, .lambda, "error: \(failure.message)", nil)
            throw failure
        }
        do {
            try MutationInput.requireNonNullFields(model, next.item, ignoringTimestamps: false)
        } catch {
            // An answer that cannot be stored is the handler's failure: the log says so.
            await record(model, key, field, sent, existing, .lambda, "error: \(error)", nil)
            throw error
        }
        let now = environment.nowMilliseconds
        let tombstoneTTL = environment.sync.tombstoneTTLSeconds
        let expectedVersion = existing["_version"]
        let written = try await environment.store.write { tx -> Item? in
            guard let current = try tx.get(model, key: key), current["_version"] == expectedVersion else { return nil }
            return try next.commit(model: model, tx: tx, now: now, tombstoneTTL: tombstoneTTL)
        }
        if let written {
            await record(model, key, field, sent, existing, .lambda, outcome, written["_version"]?.intValue)
        }
        return written
    }

    private func record(
        _ model: ModelSchema, _ key: Item, _ field: MutationField, _ sent: Int, _ existing: Item,
        _ handler: ConflictHandlerKind, _ outcome: String, _ resultVersion: Int?
    ) async {
        let record = ConflictRecord(
            model: model.name, key: key, mutation: field.name, incomingVersion: sent,
            storedVersion: existing["_version"]?.intValue ?? 0, handler: handler.rawValue, outcome: outcome,
            resultVersion: resultVersion, at: environment.nowMilliseconds)
        // `error: <reason>` outcomes count as one label value, whatever the reason.
        environment.metrics?.conflict(handler: handler.rawValue, outcome: outcome.hasPrefix("error") ? "error" : outcome)
        // The log is for debugging: failing to write it must not fail the client's mutation.
        _ = try? await environment.store.write { tx in try tx.recordConflict(record) }
    }

    /// The stored item as a failed mutation's `errors[].data`: projected onto the mutation's
    /// selection like a `data` result. AppSync filters the error's data by the selection set,
    /// and clients build their remote model from it: a nested object carrying fields they did
    /// not select (its own `_version`) makes amplify-js's generated relation setter throw, so
    /// its conflict handler would never run. It holds only what the caller may read: `null`
    /// for an item they may not read, a field or related object they may not read is null.
    private func errorData(_ existing: Item, _ model: ModelSchema, _ field: MutationField, _ access: RootAccess) async -> JSONValue {
        await planner.projection(for: access.caller).errorData(existing, model: model, field: field)
    }
}
