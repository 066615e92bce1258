import DeltaSyncModelSchema

/// Every model of one schema, generated as `DeltaSyncModels` next to the models. A
/// ``DataStore`` is opened with one.
///
/// The generator writes the schema's description as Swift values (the parser's output, checked
/// against it by the project's tests), so opening a store parses nothing.
public protocol ModelRegistry: Sendable {
    /// Identifies the `schema.graphql` the models were generated from: when it differs from the
    /// one a database file was built for, local data is rebuilt.
    static var schemaVersion: String { get }
    /// The models, enums and non-model types the schema declares, as the server reads them.
    static var schema: AmplifySchema { get }
    /// The generated type of every model, join models included.
    static var models: [any Model.Type] { get }
}

extension AmplifySchema {
    /// The description of a generated model.
    public func generatedModel(_ name: String) -> ModelSchema {
        guard let model = model(named: name) else {
            fatalError("The generated schema has no model \(name). Regenerate the models with `deltasync codegen swift`.")
        }
        return model
    }
}
