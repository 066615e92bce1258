import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncStorage

/// An item about to be committed by a mutation, and whether `updatedAt` takes the change time:
/// how an input, a merge, a Lambda's resolution or a delete turns the stored item into the
/// next one, and the commit that versions and logs it.
struct ItemChange: Sendable {
    var item: Item
    var touchesUpdatedAt: Bool

    /// Bumps the version, stamps the change time, writes the item and its delta.
    func commit(model: ModelSchema, tx: any ItemWriteTransaction, now: Int, tombstoneTTL: Int
    ) throws -> Item {
        var item = self.item
        let changedAt = try tx.stampChange(now: now)
        item["_version"] = .int((item["_version"]?.intValue ?? 0) + 1)
        item["_lastChangedAt"] = .int(changedAt)
        if item["_deleted"] == true {
            item["_ttl"] = .int(changedAt / 1000 + tombstoneTTL)
        } else if let updatedAt = model.timestamps.updatedAt, touchesUpdatedAt {
            item[updatedAt] = .string(AWSDateTimeFormat.string(fromMilliseconds: changedAt))
        }
        try tx.putLogged(model, item, changedAt: changedAt)
        return item
    }

    /// The stored item with the input's fields set (explicit nulls remove), or merged by
    /// Automerge's rules. Keys and `_version` never change this way.
    static func applying(_ input: Item, to existing: Item, model: ModelSchema, merge: Bool) throws -> ItemChange {
        let ignored = Set(model.primaryKey.fields).union(["_version", "__typename"])
        let storedNames = Set(model.storedFields.map(\.name))
        let changes = input.filter { storedNames.contains($0.key) && !ignored.contains($0.key) }
        var item: Item
        if merge {
            item = Automerge.merge(existing: existing, incoming: changes, ignoring: ignored)
        } else {
            item = existing
            for (name, value) in changes { item[name] = value.isNull ? nil : value }
        }
        // A merge keeps the server's scalars, but the item did change now.
        let touches = merge || model.timestamps.updatedAt.map { (input[$0] ?? .null).isNull } == true
        try MutationInput.requireNonNullFields(model, item, ignoringTimestamps: false)
        return ItemChange(item: item, touchesUpdatedAt: touches)
    }

    /// A Lambda's RESOLVE item replaces the stored fields; keys and metadata stay the server's.
    static func resolved(_ resolved: Item, over existing: Item, model: ModelSchema) -> ItemChange {
        var item: Item = [:]
        for field in model.storedFields { item[field.name] = resolved[field.name] }
        for name in model.primaryKey.fields + ["__typename", "_version", "_deleted", "_lastChangedAt", "_ttl"] {
            item[name] = existing[name]
        }
        if let createdAt = model.timestamps.createdAt { item[createdAt] = existing[createdAt] }
        let touches = model.timestamps.updatedAt.map { (item[$0] ?? .null).isNull } == true
        return ItemChange(item: item.filter { !$0.value.isNull }, touchesUpdatedAt: touches)
    }

    /// `existing` marked deleted.
    static func tombstone(_ existing: Item) -> ItemChange {
        var item = existing
        item["_deleted"] = true
        return ItemChange(item: item, touchesUpdatedAt: false)
    }
}
