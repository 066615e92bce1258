/// How a ``DeltaSyncServer`` listens, authenticates and stores, with the defaults of
/// `amplify mock` and AppSync where those exist.
///
/// ```swift
/// var configuration = ServerConfiguration()
/// configuration.port = 0              // any free port, for tests
/// configuration.storage = .inMemory
/// configuration.apiKey = "da2-test"
/// ```
public struct ServerConfiguration: Sendable {
    /// Where items are stored.
    public enum Storage: Sendable, Equatable {
        /// A SQLite file (created with its folder if missing), WAL mode.
        case file(String)
        /// A SQLite database that lives as long as the server.
        case inMemory
    }

    /// The interface to listen on. `127.0.0.1` keeps a development server private; use
    /// `0.0.0.0` in a container.
    public var host: String = "127.0.0.1"
    /// `amplify mock` listens on 20002, so existing local configurations keep working.
    /// `0` picks a free port (see ``RunningServer/port``).
    public var port: Int = 20002
    /// The accepted `x-api-key`. `nil` generates a `da2-...` key at start.
    public var apiKey: String?
    public var storage: Storage = .file(".deltasync/deltasync.sqlite")
    /// Largest accepted request body. AppSync refuses requests over 1 MB... of query text;
    /// bodies hold variables too, so allow more.
    public var maxRequestBodyBytes: Int = 5 * 1024 * 1024

    public init() {}
}
