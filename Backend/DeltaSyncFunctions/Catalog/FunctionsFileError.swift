/// What is wrong with a `functions.json`: the file, the line, the JSON path at fault and what
/// to write instead.
///
/// ```swift
/// do { _ = try FunctionsFile(contentsOf: "functions.json") } catch { print(error) }
/// // functions.json line 3, functions.echo.url: expected a URL such as "http://127.0.0.1:9000/echo", got 42.
/// ```
public struct FunctionsFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file as it was named.
    public var file: String
    /// 1-based line; `nil` when the file could not be read.
    public var line: Int?
    /// `functions.echo.url`: the value at fault; empty for the whole file.
    public var path: String
    /// What is wrong and what to write instead.
    public var reason: String

    public init(file: String, line: Int?, path: String, reason: String) {
        self.file = file
        self.line = line
        self.path = path
        self.reason = reason
    }

    /// `functions.json line 3, functions.echo.url: reason`.
    public var description: String {
        var text = file
        if let line { text += " line \(line)" }
        if !path.isEmpty { text += (line == nil ? " " : ", ") + path }
        return text + ": " + reason
    }
}
