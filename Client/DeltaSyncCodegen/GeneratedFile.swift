/// One Swift source file of generated code: its name in the output folder and its text.
public struct GeneratedFile: Equatable, Sendable {
    /// The file name, e.g. `Post.swift`.
    public let name: String
    /// The Swift source, ending with a newline.
    public let contents: String

    /// - Parameters:
    ///   - name: The file name, e.g. `Post.swift`.
    ///   - contents: The Swift source.
    public init(name: String, contents: String) {
        self.name = name
        self.contents = contents
    }
}
