/// Which shape of API Amplify generates for a schema: the versioned one DataStore syncs with,
/// or the plain one the API category, Gen 2's data client and Apollo use.
///
/// Amplify decides it per project, never per model: a Gen 1 project is versioned exactly when
/// its `transform.conf.json` has a `ResolverConfig`; a Gen 2 `defineData` API never is.
///
/// ```swift
/// var schema = try AmplifySchema.parse(source: "type Post @model { id: ID! title: String }")
/// schema = schema.servingConflictDetection(.none)
/// schema.model(named: "Post")?.operations.sync   // nil: no syncPosts without versions
/// ```
public enum ConflictDetection: String, Sendable, CaseIterable {
    /// Items carry `_version`, `_deleted` and `_lastChangedAt`; `syncX` queries, `_version` in
    /// inputs, tombstones and the delta log are part of the API.
    case version = "VERSION"
    /// The plain shape: no sync metadata, no `syncX`, physical deletes, writes conditioned
    /// only on the key's existence and the caller's `condition`.
    case none = "NONE"
}

extension AmplifySchema {
    /// This schema as an API with `mode` serves it: with `.none` no model has a sync query.
    /// Schemas parse versioned; `.version` changes nothing.
    public func servingConflictDetection(_ mode: ConflictDetection) -> AmplifySchema {
        var schema = self
        schema.conflictDetection = mode
        if mode == .none {
            for index in schema.models.indices { schema.models[index].operations.sync = nil }
        }
        return schema
    }

    /// Whether items carry sync metadata in the API (`_version`, `_deleted`, `_lastChangedAt`).
    public var isVersioned: Bool { conflictDetection == .version }
}
