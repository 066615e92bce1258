import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A `deltasync serve` child process: the debug binary `swift build` made, on a free port, for
/// tests that need servers in processes of their own (several instances on one database).
///
/// Ready once it printed its GraphQL URL, which the server does only when it serves (on a shared
/// store: once it receives the other instances' events). Its output is read to the end on a
/// thread of its own, so the process never blocks on a full pipe.
final class ServeProcess: Sendable {
    let pid: pid_t
    let port: Int

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// `.build/debug/deltasync` of this package.
    static var binary: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/debug/deltasync").path
    }

    /// Starts `deltasync serve ARGUMENTS --port PORT` and returns once it serves.
    init(_ arguments: [String]) async throws {
        guard FileManager.default.isExecutableFile(atPath: Self.binary) else {
            throw Failure(description: "\(Self.binary) is missing: run `swift build` first.")
        }
        port = try Self.freePort()
        var pipe: [Int32] = [0, 0]
        guard Glibc.pipe(&pipe) == 0 else { throw Failure(description: "pipe() failed: \(errno)") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, pipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, pipe[1], 2)
        posix_spawn_file_actions_addclose(&actions, pipe[0])
        let argv = ([Self.binary, "serve"] + arguments + ["--port", String(port)]).map { strdup($0) }
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, Self.binary, &actions, nil, argv + [nil], environ)
        close(pipe[1])
        guard spawned == 0 else {
            close(pipe[0])
            throw Failure(description: "posix_spawn \(Self.binary) failed: \(spawned)")
        }
        self.pid = pid
        let output = FileHandle(fileDescriptor: pipe[0], closeOnDealloc: true)
        // The banner's "GraphQL:" line, or everything printed before the process ended.
        let ready: String? = await withCheckedContinuation { continuation in
            Thread {
                var seen = ""
                var resumed = false
                while true {
                    let chunk = output.availableData
                    if chunk.isEmpty { break }
                    if !resumed {
                        seen += String(decoding: chunk, as: UTF8.self)
                        if seen.contains("GraphQL:") {
                            resumed = true
                            continuation.resume(returning: nil)
                        }
                    }
                }
                if !resumed { continuation.resume(returning: seen) }
            }.start()
        }
        if let failed = ready {
            stop()
            throw Failure(description: "deltasync serve ended before serving:\n\(failed)")
        }
    }

    /// SIGTERM, then waits for the process to exit (its graceful shutdown).
    func stop() {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    }

    /// A port nothing listens on now: bound, read and released.
    private static func freePort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure(description: "socket() failed: \(errno)") }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { sockaddr in
                bind(socket, sockaddr, length) == 0 && getsockname(socket, sockaddr, &length) == 0
            }
        }
        guard bound else { throw Failure(description: "bind() failed: \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
