/// Something in the project's resolver files that DeltaSync does not run, and why: said at
/// start, file by file, so nothing is ignored silently.
public struct ResolverFinding: Sendable, Equatable, CustomStringConvertible {
    /// The file, relative to the API folder (`resolvers/Subscription.onCreateTodo.preSubscribe.1.req.vtl`,
    /// `stacks/CustomResources.json#SearchResolver`).
    public var file: String
    /// Why it does not run, and what happens instead.
    public var reason: String

    public init(file: String, reason: String) {
        self.file = file
        self.reason = reason
    }

    public var description: String { "\(file): not run: \(reason)" }
}

/// A resolver file or resource that stops the start: malformed, or naming what does not exist.
public struct ResolverFileError: Error, Sendable, CustomStringConvertible {
    /// The file, relative to the API folder.
    public var file: String
    /// 1-based; 0 when the problem is the file as a whole.
    public var line: Int
    public var message: String

    public init(file: String, line: Int = 0, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    /// `file:line: error: message`, as compilers and the schema's errors print it.
    public var description: String { line > 0 ? "\(file):\(line): error: \(message)" : "\(file): error: \(message)" }
}
