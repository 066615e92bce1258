/// One file of a user's Amplify schema, as text.
///
/// A project may split its schema over several files (`schema/*.graphql`); they form one schema,
/// and errors name the file they come from.
///
/// ```swift
/// let schema = try AmplifySchema.parse([
///     SchemaSource(file: "schema/blog.graphql", text: blogText),
///     SchemaSource(file: "schema/post.graphql", text: postText),
/// ])
/// ```
public struct SchemaSource: Sendable {
    /// The file name errors report, usually the path the text was read from.
    public var file: String
    /// The GraphQL SDL text.
    public var text: String

    /// - Parameters:
    ///   - file: The file name errors report.
    ///   - text: The GraphQL SDL text.
    public init(file: String, text: String) {
        self.file = file
        self.text = text
    }
}
