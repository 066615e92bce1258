// Generated models and app code use these types (`Item`, `JSONValue`, `QueryPredicate`, the
// schema description) through `import DeltaSyncClient` alone.
@_exported import DeltaSyncCore
@_exported import DeltaSyncSchema
