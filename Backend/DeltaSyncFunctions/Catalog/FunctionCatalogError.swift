/// Why a ``FunctionCatalog`` could not be built: a function that cannot be set up, named, with
/// what to fix.
///
/// ```swift
/// do { _ = try FunctionCatalog.Entry(flag: "echo") } catch { print(error) }
/// // --function echo: expected NAME=URL, such as echo=http://127.0.0.1:9000/echo.
/// ```
public struct FunctionCatalogError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The whole message, naming the function or flag.
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
