import DeltaSyncSchema

/// The declaration of `DeltaSyncModels`, the `ModelRegistry` a `DataStore` opens with: the
/// schema's version, its description as the server's parser reads it, and every model type.
struct RegistryFileWriter {
    static let typeName = "DeltaSyncModels"

    let schema: AmplifySchema
    let schemaText: String
    let names: SwiftNames

    var declaration: SwiftSource {
        var source = SwiftSource()
        source.block("public enum \(Self.typeName): \(names.library("ModelRegistry"))") { body in
            // Line breaks count as `\n` whatever the file used, as the text read them before.
            let text = schemaText.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            body.line("/// Identifies the `schema.graphql` these models were generated from.")
            body.line("public static let schemaVersion = \(SwiftLiteral.string(SchemaVersion.hash(text)))")
            body.line()
            body.line("/// The schema's models, enums and non-model types, as the server reads them.")
            SchemaDescriptionWriter(schema: schema, names: names).write(into: &body, assignedTo: "public static let schema =")
            body.line()
            body.line("public static let models: [any \(names.library("Model")).Type] = [")
            for model in schema.models {
                body.line("    \(model.name).self,")
            }
            body.line("]")
        }
        return source
    }
}
