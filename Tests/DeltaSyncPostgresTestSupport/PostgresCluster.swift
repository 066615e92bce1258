import DeltaSyncPostgres
import DeltaSyncSchema
import Foundation

/// The PostgreSQL server the tests use: `DELTASYNC_POSTGRES_URL` when set, otherwise one
/// throw-away cluster per test process (`scripts/postgres-cluster.sh start`), stopped when the
/// process exits. Each test gets a schema of its own, so tests run in parallel.
public enum PostgresCluster {
    /// Started once, on first use. The script runs on a thread of its own (it takes a second
    /// or so): Swift concurrency's few threads are never blocked on it.
    private static let startup = Task<String, any Error> {
        if let url = ProcessInfo.processInfo.environment["DELTASYNC_POSTGRES_URL"], !url.isEmpty { return url }
        return try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Result { try start() }) }
            thread.start()
        }
    }

    /// The server's URL (without `schema=`).
    public static func url() async throws -> String {
        try await startup.value
    }

    /// The cluster's directory: derived from the process id, so the exit hook (a C function,
    /// which captures nothing) finds it.
    static var directory: String { "/tmp/deltasync-postgres-tests-\(getpid())" }

    static let script: String = {
        // Tests/DeltaSyncPostgresTestSupport/PostgresCluster.swift → the package root.
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent("scripts/postgres-cluster.sh").path
    }()

    struct StartFailed: Error, CustomStringConvertible {
        var description: String
    }

    private static func start() throws -> String {
        let (status, output) = try run(["start", directory])
        guard status == 0, let url = output.split(separator: "\n").last.map(String.init), url.hasPrefix("postgres://") else {
            throw StartFailed(description: "scripts/postgres-cluster.sh start failed (\(status)): \(output)")
        }
        atexit { _ = try? PostgresCluster.run(["stop", PostgresCluster.directory]) }
        return url
    }

    /// Runs the script with `posix_spawn` and `waitpid`, its output going to a file. Not
    /// Foundation's `Process`: its exit monitoring never reaped the script here (the test
    /// stayed blocked on a zombie), and postgres, which the script starts, keeps inherited
    /// descriptors open, so a pipe would never reach its end.
    @discardableResult
    static func run(_ arguments: [String]) throws -> (Int32, String) {
        let outputPath = directory + ".out"
        defer { unlink(outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = (["/bin/bash", script] + arguments).map { strdup($0) }
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/bin/bash", &actions, nil, argv + [nil], environ)
        guard spawned == 0 else { throw StartFailed(description: "posix_spawn /bin/bash failed: \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        return ((status >> 8) & 0xff, text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Settings for a schema no other test uses.
    public static func settings(schema: String = uniqueSchema(), pool: Int = 4) async throws -> PostgresStoreSettings {
        var settings = try PostgresStoreSettings(url: try await url())
        settings.tls = .disable
        settings.schema = schema
        settings.poolSize = pool
        return settings
    }

    public static func uniqueSchema() -> String {
        "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
    }

    /// A store of `schema` on a fresh PostgreSQL schema, shut down after `body`.
    public static func withStore(
        _ schema: AmplifySchema, in name: String = uniqueSchema(), pool: Int = 4, _ body: (PostgresItemStore) async throws -> Void
    ) async throws {
        let store = try await PostgresItemStore.connect(settings: try await settings(schema: name, pool: pool), schema: schema)
        do {
            try await body(store)
            await store.shutdown()
        } catch {
            await store.shutdown()
            throw error
        }
    }
}
