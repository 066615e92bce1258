import DeltaSyncSchema

/// Every model of one schema, generated as `DeltaSyncModels` next to the models. A
/// ``DataStore`` is opened with one.
///
/// The schema text is kept as the generator read it: the models' descriptions come from parsing
/// it with the same transform the server runs, and its hash decides when local data must be
/// rebuilt.
public protocol ModelRegistry: Sendable {
    /// The `schema.graphql` the models were generated from.
    static var schemaText: String { get }
    static var schema: AmplifySchema { get }
    static var models: [any Model.Type] { get }
}

extension AmplifySchema {
    /// The schema generated code embeds. Code generation already parsed it, so a failure here
    /// means the generated files were edited by hand.
    public static func generated(_ text: String) -> AmplifySchema {
        do {
            return try AmplifySchema.parse(source: text, file: "schema.graphql")
        } catch {
            fatalError("The generated model registry holds a schema that does not parse (\(error)). Regenerate the models with `deltasync codegen swift`.")
        }
    }

    /// The description of a generated model.
    public func generatedModel(_ name: String) -> ModelSchema {
        guard let model = model(named: name) else {
            fatalError("The generated schema has no model \(name). Regenerate the models with `deltasync codegen swift`.")
        }
        return model
    }
}
