import DeltaSyncLocalStore
import DeltaSyncSchema
import Foundation
import Testing

/// The models' registry embeds the schema's description instead of parsing it at launch: it
/// must be exactly what the parser (the server's) reads from this target's schema.graphql.
@Suite("Generated registry: the embedded schema description")
struct GeneratedSchemaTests {
    @Test("the embedded description equals the parser's output, and the version is the text's hash")
    func embeddedDescriptionMatchesTheParser() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("schema.graphql")
        let text = try String(contentsOf: file, encoding: .utf8)
        let parsed = try AmplifySchema.parse(source: text, file: "schema.graphql")
        #expect(DeltaSyncModels.schema == parsed)
        #expect(DeltaSyncModels.schemaVersion == SchemaVersion.hash(text))
        #expect(DeltaSyncModels.models.map { $0.modelName } == parsed.models.map(\.name))
    }
}
