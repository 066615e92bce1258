import DeltaSyncCodegen
import DeltaSyncSchema
import Foundation
import Testing

/// Schemas to generate from, and the generated text split for inspection.
enum Generated {
    /// The repository's example schema, read in place so the tests follow it.
    static func blogSchemaText() throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return try String(contentsOf: root.appendingPathComponent("Examples/blog/schema.graphql"), encoding: .utf8)
    }

    static func generator(_ text: String) throws -> SwiftModelGenerator {
        SwiftModelGenerator(schema: try AmplifySchema.parse(source: text, file: "schema.graphql"), schemaText: text)
    }

    /// The generated files of `text` by name.
    static func files(_ text: String) throws -> [String: String] {
        Dictionary(uniqueKeysWithValues: try generator(text).files().map { ($0.name, $0.contents) })
    }

    /// The generated file `name` of the example schema.
    static func blog(_ name: String) throws -> String {
        try #require(try files(blogSchemaText())[name])
    }
}

extension String {
    /// The lines with their indentation removed.
    var trimmedLines: [String] {
        split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// Whether a line reads `line` once indentation is removed.
    func hasLine(_ line: String) -> Bool { trimmedLines.contains(line) }

    /// The lines between the line `opening` and the line closing its block at the same depth.
    func block(_ opening: String) -> [String] {
        let lines = split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == opening }) else { return [] }
        let indentation = lines[start].prefix { $0 == " " }
        guard let end = lines[(start + 1)...].firstIndex(where: { $0 == indentation + "}" || $0.hasPrefix(indentation + ") {") })
        else { return [] }
        return lines[(start + 1)..<end].map { $0.trimmingCharacters(in: .whitespaces) }
    }
}
