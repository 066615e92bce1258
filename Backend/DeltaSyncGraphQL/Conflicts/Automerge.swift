import DeltaSyncCore

/// AppSync's Automerge rules for an update that arrives with a stale `_version`:
/// the server's scalars win, lists are concatenated (incoming appended, duplicates kept),
/// a field that is new or null on the server takes the incoming value, and maps (non-model
/// objects) merge field by field with the same rules. Fields the mutation did not send are
/// untouched.
enum Automerge {
    /// The stored item with the incoming fields merged in.
    static func merge(existing: Item, incoming: Item, ignoring ignored: Set<String>) -> Item {
        var merged = existing
        for (field, value) in incoming where !ignored.contains(field) {
            merged[field] = mergeValue(server: existing[field] ?? .null, incoming: value)
        }
        return merged.filter { !$0.value.isNull }
    }

    static func mergeValue(server: JSONValue, incoming: JSONValue) -> JSONValue {
        switch (server, incoming) {
        case (.null, _):
            return incoming
        case (.array(let s), .array(let i)):
            return .array(s + i)
        case (.object(let s), .object(let i)):
            var merged = s
            for (key, value) in i { merged[key] = mergeValue(server: s[key] ?? .null, incoming: value) }
            return .object(merged)
        default:
            return server
        }
    }
}
