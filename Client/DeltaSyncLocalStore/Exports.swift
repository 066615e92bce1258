// What generated models and app code name through `import DeltaSyncLocalStore` (or
// `import DeltaSyncClient`) alone: item values, predicates and the schema description. The rest
// of the shared modules (`Field`, `Index`, `Relation`, AppSync's error types, ...) stays out of
// apps' namespace.
@_exported import enum DeltaSyncCore.JSONValue
@_exported import typealias DeltaSyncCore.Item
@_exported import enum DeltaSyncCore.QueryPredicate
@_exported import enum DeltaSyncCore.FieldOperator
@_exported import struct DeltaSyncModelSchema.AmplifySchema
@_exported import struct DeltaSyncModelSchema.ModelSchema
