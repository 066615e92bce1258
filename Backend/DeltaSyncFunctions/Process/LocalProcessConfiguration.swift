/// How a local process function is started.
///
/// The process gets exactly ``environment``: nothing is inherited from the server, so a
/// function cannot pick up the developer's real AWS credentials by accident and runs the same
/// on every machine. Pass `PATH` (and whatever else the runtime needs, such as `HOME`)
/// explicitly:
///
/// ```swift
/// let configuration = LocalProcessConfiguration(
///     command: ["python3", "-u", "worker.py"],
///     workingDirectory: "/path/to/function",
///     environment: ["PATH": "/usr/local/bin:/usr/bin:/bin", "TABLE": "Todo"]
/// )
/// ```
public struct LocalProcessConfiguration: Sendable {
    /// The executable and its arguments. A bare executable name (no `/`) is looked up in
    /// `environment["PATH"]`; a relative path is relative to ``workingDirectory``.
    public var command: [String]
    /// The directory the process runs in; `nil` for the server's own.
    public var workingDirectory: String?
    /// The process's complete environment.
    public var environment: [String: String]
    /// How many warm processes may run at once; further concurrent calls wait for one to be
    /// free, like a Lambda with reserved concurrency.
    public var maxProcesses: Int

    public init(command: [String], workingDirectory: String? = nil, environment: [String: String] = [:], maxProcesses: Int = 4) {
        self.command = command
        self.workingDirectory = workingDirectory
        self.environment = environment
        self.maxProcesses = maxProcesses
    }
}
