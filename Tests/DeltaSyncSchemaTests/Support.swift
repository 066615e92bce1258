import DeltaSyncSchema
import Foundation
import Testing

/// Fixture access and SDL inspection shared by the tests.
enum Fixture {
    /// Fixtures that are the repository's example project, read in place so the tests follow it.
    static let examples = [
        "blog.graphql": "Examples/blog/schema.graphql",
        "blog-transform.conf.json": "Examples/blog/transform.conf.json",
        "gen2.graphql": "Examples/gen2/schema.graphql",
    ]

    /// The text of `Fixtures/<name>` (or of the example file it names).
    static func text(_ name: String) throws -> String {
        if let example = examples[name] {
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent()
            return try String(contentsOf: root.appendingPathComponent(example), encoding: .utf8)
        }
        let url = try #require(Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: nil))
        return try String(contentsOf: url, encoding: .utf8)
    }

    /// Parses `Fixtures/<name>`, reporting errors under its bare name.
    static func schema(_ name: String) throws -> AmplifySchema {
        try AmplifySchema.parse(source: text(name), file: name)
    }

    /// Every schema fixture (the inputs, not the expected outputs).
    static let schemas = ["blog.graphql", "v1.graphql", "relations.graphql", "options.graphql"]
}

extension String {
    /// The member lines of the block opened by `header` (`type Post`, `input CreatePostInput`),
    /// or `nil` when the SDL has no such block.
    func members(of header: String) -> [String]? {
        guard let start = range(of: "\n\(header) {\n") ?? (hasPrefix("\(header) {\n") ? range(of: "\(header) {\n") : nil),
            let end = self[start.upperBound...].range(of: "\n}")
        else { return nil }
        return self[start.upperBound..<end.lowerBound]
            .split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// The member of a block whose name is `name` (`listPosts(...)` or `title: String`).
    func member(_ name: String, of header: String) -> String? {
        members(of: header)?.first { $0.hasPrefix("\(name)(") || $0.hasPrefix("\(name):") }
    }
}
