/// A line of an env file (dotenv syntax) that cannot be read, with what to write instead.
///
/// ```swift
/// do { _ = try DotEnvFile.parse(text, file: ".env") } catch { print(error) }
/// // .env:3: expected KEY=VALUE, got "PORT 8080". Write it as PORT=8080.
/// ```
public struct EnvFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file as it was named.
    public var file: String
    /// 1-based line; `nil` when the file could not be read at all.
    public var line: Int?
    public var reason: String

    public init(file: String, line: Int?, reason: String) {
        self.file = file
        self.line = line
        self.reason = reason
    }

    /// `path/.env:3: reason`, the form editors and terminals turn into a link.
    public var description: String {
        if let line { return "\(file):\(line): \(reason)" }
        return "\(file): \(reason)"
    }
}
