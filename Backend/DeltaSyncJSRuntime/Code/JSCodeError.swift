/// Resolver code that AppSync would not save: not an ES module exporting `request` and
/// `response`, an import AppSync does not resolve, a feature its runtime does not run, or more
/// text than it takes. Reported when the server starts, with the file, line and column.
///
/// ```swift
/// do {
///     _ = try JSCode(name: "resolvers/Query.echo.js", text: "export function request(ctx) { try { } catch { } }")
/// } catch {
///     print(error)   // resolvers/Query.echo.js:1:32: error: try statements do not run on AppSync's runtime: ...
/// }
/// ```
public struct JSCodeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The code's name: its file, relative to the project (`resolvers/Query.echo.js`).
    public var file: String
    /// 1-based; 0 when the problem is the file as a whole.
    public var line: Int
    public var column: Int
    public var message: String

    public init(file: String, line: Int = 0, column: Int = 0, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    /// `file:line:column: error: message`, as compilers print it.
    public var description: String {
        line > 0 ? "\(file):\(line):\(column): error: \(message)" : "\(file): error: \(message)"
    }
}
