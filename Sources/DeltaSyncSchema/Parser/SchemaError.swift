/// A problem in an Amplify schema, located in its file.
///
/// `description` reads like a compiler diagnostic so editors and CI logs can jump to it:
/// `schema.graphql:12:3: error: unknown type 'Pots' for field 'Blog.posts'`.
public struct SchemaError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The schema file as given by the user (or `<input>` for text with no file).
    public var file: String
    /// 1-based line and column; 0 when the problem has no single place (e.g. an empty project).
    public var line: Int
    public var column: Int
    public var message: String

    public init(file: String, line: Int, column: Int, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String { "\(file):\(line):\(column): error: \(message)" }
}
