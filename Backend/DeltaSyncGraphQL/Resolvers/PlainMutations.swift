import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncStorage
import GraphQL

/// `update` and `delete` of an API without conflict detection, as Amplify's unversioned
/// resolvers run them: the write is conditioned on the item existing (`attribute_exists` on the
/// key) and on the caller's `condition`; an update sets what the input gives and removes what it
/// nulls; a delete removes the item and answers the item as it was. A failed condition is
/// DynamoDB's error passed through, without the stored item.
///
/// The store still versions every write, logs it and keeps a hidden tombstone for a delete:
/// nothing of that reaches these clients (no field, query or filter names it), and it is what
/// lets a DataStore client that synced before conflict detection was turned off catch up once
/// it is turned back on.
extension MutationResolvers {
    func plainChange(
        _ model: ModelSchema, args: Map, field: MutationField, isDelete: Bool, access: RootAccess
    ) async throws -> ModelObject {
        try access.require()
        let input = try MutationInput.item(args)
        let condition = try environment.predicate(args.argument("condition"))
        let key = try MutationInput.key(model, from: input)
        let tombstoneTTL = environment.sync.tombstoneTTLSeconds
        switch environment.faults?.take(for: field.name) {
        case .error(let error)?: throw error
        // Without versions the only refusal a write meets is a failed condition.
        case .conflict?: throw Self.conditionFailed()
        case nil: break
        }
        let now = environment.nowMilliseconds
        let (answer, written) = try await environment.store.write { tx -> (Item, Item) in
            guard let existing = try tx.get(model, key: key), existing["_deleted"] != true else {
                if access.restriction != nil { throw access.denial }
                throw Self.conditionFailed()
            }
            try access.require(existing)
            try access.requireFieldWrites(input, stored: existing)
            try access.requireReadable(condition, of: existing, model: model)
            guard condition.matches(existing) else { throw Self.conditionFailed() }
            if isDelete {
                return (existing, try ItemChange.tombstone(existing).commit(model: model, tx: tx, now: now, tombstoneTTL: tombstoneTTL))
            }
            let next = try ItemChange.applying(input, to: existing, model: model, merge: false).commit(
                model: model, tx: tx, now: now, tombstoneTTL: tombstoneTTL)
            return (next, next)
        }
        return ModelObject(item: answer, written: written)
    }

    /// A create whose key is taken by a hidden tombstone: the new item replaces it, one version
    /// above it, as a create of a physically deleted key succeeds. `nil` when the key holds a
    /// live item (or nothing: another writer's delete purged it meanwhile, and the caller's
    /// insert is what should run).
    func replacingTombstone(
        _ model: ModelSchema, key: Item, now: Int, _ build: @escaping @Sendable (_ changedAt: Int) throws -> Item
    ) async throws -> Item? {
        try await environment.store.write { tx -> Item? in
            guard let existing = try tx.get(model, key: key), existing["_deleted"] == true else { return nil }
            let changedAt = try tx.stampChange(now: now)
            var item = try build(changedAt)
            item["_version"] = .int((existing["_version"]?.intValue ?? 0) + 1)
            try tx.putLogged(model, item, changedAt: changedAt)
            return item
        }
    }

    /// DynamoDB's failed condition with a request ID of its form (52 upper-case letters and
    /// digits): twelve base-36 digits from each random 64-bit draw, five draws in all.
    static func conditionFailed() -> AppSyncError {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".utf8)
        var letters: [UInt8] = []
        letters.reserveCapacity(52)
        while letters.count < 52 {
            var draw = UInt64.random(in: .min ... .max)
            for _ in 0..<12 where letters.count < 52 {
                letters.append(alphabet[Int(draw % 36)])
                draw /= 36
            }
        }
        return AppSyncError.dynamoDBConditionalCheckFailed(requestID: String(decoding: letters, as: UTF8.self))
    }
}
