import DeltaSyncModelSchema

/// What a ``DataStore`` is opened for: a schema, its version, and the generated type of each
/// model when there are generated types.
///
/// Apps open stores for a generated registry (``init(registry:)``). Tools that work on a schema
/// they read at run time, such as DeltaSync's simulated devices, open them for the schema alone
/// (``init(schema:version:)``): they save and read items, not models.
package struct StoreModels: Sendable {
    /// The models, enums and non-model types, as the server reads them.
    package let schema: AmplifySchema
    /// Identifies the schema: when it differs from the one a file was built for, local data is
    /// rebuilt.
    package let version: String
    /// The generated type of each model, by name; empty for a schema read at run time.
    package let types: [String: any Model.Type]

    /// The models of a generated registry (`DeltaSyncModels`).
    package init(registry: any ModelRegistry.Type) {
        schema = registry.schema
        version = registry.schemaVersion
        types = Dictionary(registry.models.map { ($0.modelName, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// A schema read at run time, without generated types.
    package init(schema: AmplifySchema, version: String) {
        self.schema = schema
        self.version = version
        types = [:]
    }
}
