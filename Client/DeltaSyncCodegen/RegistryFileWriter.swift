import DeltaSyncSchema

/// The declaration of `DeltaSyncModels`, the `ModelRegistry` a `DataStore` opens with: the
/// schema text itself, so the models' descriptions come from the same transform the server runs,
/// and every model type.
struct RegistryFileWriter {
    static let typeName = "DeltaSyncModels"

    let schema: AmplifySchema
    let schemaText: String
    let names: SwiftNames

    var declaration: SwiftSource {
        var source = SwiftSource()
        source.block("public enum \(Self.typeName): \(names.library("ModelRegistry"))") { body in
            schemaTextLiteral(into: &body)
            body.line()
            let amplifySchema = names.library("AmplifySchema")
            body.line("public static let schema = \(amplifySchema).generated(schemaText)")
            body.line()
            body.line("public static let models: [any \(names.library("Model")).Type] = [")
            for model in schema.models {
                body.line("    \(model.name).self,")
            }
            body.line("]")
        }
        return source
    }

    /// A multi-line raw string holding the text unchanged but for line breaks, which become `\n`:
    /// a multi-line literal reads every line break in its source as `\n` anyway.
    private func schemaTextLiteral(into source: inout SwiftSource) {
        let text = schemaText.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        let delimiter = SwiftLiteral.rawDelimiter(for: text)
        source.line("public static let schemaText = \(delimiter)\"\"\"")
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            source.line(String(line))
        }
        source.line("\"\"\"\(delimiter)")
    }
}
