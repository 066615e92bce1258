#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A process started with `posix_spawn`, and the server's ends of its three pipes.
///
/// posix_spawn rather than Foundation's `Process` because DeltaSync needs what `Process`
/// does not offer: raw pipe descriptors that NIO can own, a process group of its own (so a
/// timeout also kills what a `sh -c` wrapper started) and a child that inherits none of the
/// server's descriptors (so the child sees end of file on stdin exactly when the server
/// closes it or dies).
struct ChildProcess {
    var pid: pid_t
    /// The write end of the child's stdin.
    var stdin: CInt
    /// The read end of the child's stdout.
    var stdout: CInt
    /// The read end of the child's stderr.
    var stderr: CInt

    /// Starts `command`; throws `Runtime.StartError` saying what to check when it cannot.
    static func spawn(command: [String], workingDirectory: String?, environment: [String: String], functionName: String) throws(FunctionFailure) -> ChildProcess {
        _ = ignoreSIGPIPE
        guard let executable = command.first, !executable.isEmpty else {
            throw startError(functionName, "its command is empty. Configure the executable and its arguments.")
        }
        if let workingDirectory, !isDirectory(workingDirectory) {
            throw startError(functionName, "its working directory \(workingDirectory) does not exist. Check the function's working directory.")
        }
        let path = try resolve(executable, workingDirectory: workingDirectory, environment: environment, functionName: functionName)

        var pipes: [(read: CInt, write: CInt)] = []
        defer {
            // The child's ends are the child's now; the server keeps only its own.
            for (index, pipe) in pipes.enumerated() { close(index == 0 ? pipe.read : pipe.write) }
        }
        for _ in 0..<3 {
            guard let pipe = makePipe() else {
                for (index, pipe) in pipes.enumerated() { close(index == 0 ? pipe.write : pipe.read) }
                let reason = String(cString: strerror(errno))
                throw startError(functionName, "no pipe could be created (\(reason)). Check the server's limit of open files.")
            }
            pipes.append(pipe)
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipes[0].read, 0)
        posix_spawn_file_actions_adddup2(&actions, pipes[1].write, 1)
        posix_spawn_file_actions_adddup2(&actions, pipes[2].write, 2)
        if let workingDirectory {
            guard addChdir(&actions, workingDirectory) == 0 else {
                for (index, pipe) in pipes.enumerated() { close(index == 0 ? pipe.write : pipe.read) }
                throw startError(functionName, "this system cannot start a process in another working directory.")
            }
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var flags = Int32(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        #if canImport(Darwin)
        // Only the three descriptors above reach the child.
        flags |= Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
        #endif
        posix_spawnattr_setflags(&attributes, Int16(flags))
        posix_spawnattr_setpgroup(&attributes, 0)
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        // The server ignores SIGPIPE; ignored signals survive exec, so give the child defaults.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCHLD, SIGUSR1, SIGUSR2] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)

        let arguments = [path] + command.dropFirst()
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let status = argv.withUnsafeBufferPointer { argv in
            envp.withUnsafeBufferPointer { envp in
                posix_spawn(&pid, path, &actions, &attributes, argv.baseAddress!, envp.baseAddress!)
            }
        }
        guard status == 0 else {
            for (index, pipe) in pipes.enumerated() { close(index == 0 ? pipe.write : pipe.read) }
            let reason = String(cString: strerror(status))
            throw startError(functionName, "`\(command.joined(separator: " "))` failed: \(reason). Check that \(path) is an executable for this machine and that the working directory is accessible.")
        }
        return ChildProcess(pid: pid, stdin: pipes[0].write, stdout: pipes[1].read, stderr: pipes[2].read)
    }

    private static func startError(_ functionName: String, _ reason: String) -> FunctionFailure {
        FunctionFailure(errorType: "Runtime.StartError", errorMessage: "Cannot start function \(functionName): \(reason)")
    }

    /// Finds the executable as a shell would, but in the function's own PATH: the server's
    /// PATH may differ from the one the function is configured with.
    private static func resolve(_ executable: String, workingDirectory: String?, environment: [String: String], functionName: String) throws(FunctionFailure) -> String {
        if executable.contains("/") {
            let checked = executable.hasPrefix("/") || workingDirectory == nil ? executable : "\(workingDirectory!)/\(executable)"
            guard access(checked, F_OK) == 0 else {
                throw startError(functionName, "\(checked) does not exist. Check the function's command.")
            }
            guard access(checked, X_OK) == 0, !isDirectory(checked) else {
                throw startError(functionName, "\(checked) is not an executable file. Check the function's command and the file's permissions (chmod +x).")
            }
            return checked
        }
        let searchPath = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in searchPath.split(separator: ":", omittingEmptySubsequences: true) {
            var candidate = "\(directory)/\(executable)"
            if !candidate.hasPrefix("/"), let workingDirectory { candidate = "\(workingDirectory)/\(candidate)" }
            if access(candidate, X_OK) == 0, !isDirectory(candidate) { return candidate }
        }
        let origin = environment["PATH"] == nil ? "the default PATH (the function's environment has no PATH)" : "the PATH of its environment"
        throw startError(functionName, "`\(executable)` was not found in \(origin): \(searchPath). Check that it is installed and that the function's environment PATH includes its directory.")
    }

    private static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// A pipe whose ends are close-on-exec, so that no other child inherits them: a child
    /// holding another function's stdin open would keep that function from ever seeing end of file.
    private static func makePipe() -> (read: CInt, write: CInt)? {
        var fds: [CInt] = [-1, -1]
        #if canImport(Darwin)
        guard pipe(&fds) == 0 else { return nil }
        // POSIX_SPAWN_CLOEXEC_DEFAULT covers posix_spawn; this covers other ways of starting processes.
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        #else
        guard pipe2Function(&fds, O_CLOEXEC) == 0 else { return nil }
        #endif
        // A pipe end numbered 0, 1 or 2 (the server runs without stdin, say) would be dup2'ed
        // onto itself, which keeps close-on-exec set: move it out of the way.
        for index in 0..<2 where fds[index] <= 2 {
            let moved = fcntl(fds[index], F_DUPFD_CLOEXEC, 3)
            guard moved >= 0 else { close(fds[0]); close(fds[1]); return nil }
            close(fds[index])
            fds[index] = moved
        }
        return (fds[0], fds[1])
    }

    private static func addChdir(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ directory: String) -> CInt {
        #if canImport(Darwin)
        return posix_spawn_file_actions_addchdir_np(actions, directory)
        #else
        guard let addChdirFunction else { return -1 }
        return addChdirFunction(actions, directory)
        #endif
    }

    /// Ignoring SIGPIPE once, process-wide: writing a request to a function that just died
    /// must fail with EPIPE (and become Runtime.ExitError), not kill the server.
    private static let ignoreSIGPIPE: Void = {
        _ = signal(SIGPIPE, SIG_IGN)
    }()

    #if !canImport(Darwin)
    // glibc has both, but Swift's Glibc module does not declare these GNU extensions.
    private typealias Pipe2 = @convention(c) (UnsafeMutablePointer<CInt>, CInt) -> CInt
    private typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> CInt
    private static let pipe2Function: Pipe2 = {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "pipe2") else { fatalError("pipe2 is missing from the C library") }
        return unsafeBitCast(symbol, to: Pipe2.self)
    }()
    private static let addChdirFunction: AddChdir? = {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addchdir_np") else { return nil }
        return unsafeBitCast(symbol, to: AddChdir.self)
    }()
    #endif
}
