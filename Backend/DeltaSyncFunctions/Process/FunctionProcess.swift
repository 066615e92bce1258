#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// One running process of a ``LocalProcessFunction``: sends it a request line and waits for
/// whatever comes first, its answer line, its end, the timeout or cancellation.
///
/// Pipes are NIO channels and the exit is awaited on a thread of its own, so no cooperative
/// thread ever blocks on the process.
final class FunctionProcess: Sendable {
    /// What became of one request.
    enum Outcome: Sendable {
        case line(String)
        case ended(ProcessExit, lastLog: String?)
        case timedOut
        case cancelled
    }

    let pid: pid_t
    private let functionName: String
    private let logger: Logger
    private let eventLoop: any EventLoop
    private let state = NIOLockedValueBox(State())
    private let endPromise: EventLoopPromise<Void>

    /// How many stderr lines are kept to explain a crash.
    private static let keptLogLines = 20
    /// The longest answer line read: more than Lambda's 6 MB response limit, and a bound on
    /// what a runaway process can make the server buffer.
    private static let maxAnswerLength = 16 * 1024 * 1024
    private static let maxLogLineLength = 64 * 1024
    /// How long to wait, after the process exits, for its pipes to reach end of file; a
    /// grandchild still holding them open must not keep the invocation waiting.
    private static let pipeDrainGrace = TimeAmount.milliseconds(300)

    private struct State {
        var io: (any Channel)?
        var log: (any Channel)?
        var pending: CheckedContinuation<Outcome, Never>?
        var pendingTimeout: Scheduled<Void>?
        var cancelRequested = false
        /// Set once the process has exited, before it is reaped: from then on its pid may be
        /// reused, so it must not be signalled.
        var exited = false
        var exit: ProcessExit?
        var stdoutOpen = true
        var stderrOpen = true
        var graceExpired = false
        var ended = false
        /// Set when the process wrote a line nobody asked for; its next answers cannot be trusted.
        var spokeOutOfTurn = false
        var recentLog: [String] = []
    }

    /// Spawns the process and connects its pipes.
    static func start(configuration: LocalProcessConfiguration, functionName: String, logger: Logger) async throws(FunctionFailure) -> FunctionProcess {
        let child = try ChildProcess.spawn(
            command: configuration.command,
            workingDirectory: configuration.workingDirectory,
            environment: configuration.environment,
            functionName: functionName
        )
        let group = MultiThreadedEventLoopGroup.singleton
        let process = FunctionProcess(pid: child.pid, functionName: functionName, logger: logger, eventLoop: group.next())
        // Reaping starts at once, so that the process never outlives us as a zombie, even if
        // what follows is slow or fails.
        process.watchExit()
        do {
            let io = try await NIOPipeBootstrap(group: process.eventLoop)
                .channelInitializer(lines(maxLength: maxAnswerLength, process: process, stdout: true))
                .takingOwnershipOfDescriptors(input: child.stdout, output: child.stdin)
                .get()
            process.attach(io: io)
            let log = try await NIOPipeBootstrap(group: process.eventLoop)
                .channelInitializer(lines(maxLength: maxLogLineLength, process: process, stdout: false))
                .takingOwnershipOfDescriptor(input: child.stderr)
                .get()
            process.attach(log: log)
        } catch {
            // The process cannot be talked to: stop it. Whatever NIO did not take is closed
            // when the channels that did are closed below, or leaks one descriptor in this
            // should-not-happen case rather than risking a double close.
            process.state.withLockedValue { state in
                if state.io == nil { state.stdoutOpen = false }
                if state.log == nil { state.stderrOpen = false }
            }
            process.kill()
            throw FunctionFailure(errorType: "Runtime.StartError", errorMessage: "Cannot start function \(functionName): its pipes could not be set up (\(error)).")
        }
        return process
    }

    /// A pipe's channel set-up: its output cut into lines, each an answer (stdout) or a log line
    /// (stderr) of `process`.
    private static func lines(
        maxLength: Int, process: FunctionProcess, stdout: Bool
    ) -> @Sendable (any Channel) -> EventLoopFuture<Void> {
        { [weak process] channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(LineSplitter(
                    maxLength: maxLength,
                    onLine: { [weak process] line in stdout ? process?.answerLine(line) : process?.logLine(line) },
                    onClose: { [weak process] in process?.pipeClosed(stdout: stdout) }
                ))
            }
        }
    }

    /// Keeps a connected pipe; closes it right away if the process already ended without it.
    private func attach(io: (any Channel)? = nil, log: (any Channel)? = nil) {
        let lateChannel = state.withLockedValue { state -> (any Channel)? in
            if state.ended { return io ?? log }
            if let io { state.io = io }
            if let log { state.log = log }
            return nil
        }
        lateChannel?.close(promise: nil)
    }

    private init(pid: pid_t, functionName: String, logger: Logger, eventLoop: any EventLoop) {
        self.pid = pid
        self.functionName = functionName
        self.logger = logger
        self.eventLoop = eventLoop
        self.endPromise = eventLoop.makePromise()
    }

    /// Whether the process can take a request: it is still running and has not broken the protocol.
    var isUsable: Bool {
        state.withLockedValue { !$0.exited && !$0.ended && !$0.spokeOutOfTurn }
    }

    /// Sends one request line and waits for what becomes of it.
    func exchange(_ request: String, timeout: Duration) async -> Outcome {
        state.withLockedValue { $0.cancelRequested = false }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
                let action: (channel: (any Channel)?, immediate: Outcome?) = state.withLockedValue { state in
                    if state.cancelRequested { return (nil, .cancelled) }
                    if state.ended { return (nil, .ended(state.exit ?? .unknown, lastLog: state.recentLog.last)) }
                    state.pending = continuation
                    let nanoseconds = timeout.components.seconds * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000
                    state.pendingTimeout = eventLoop.scheduleTask(in: .nanoseconds(max(nanoseconds, 0))) { [weak self] in
                        self?.resolvePending(.timedOut)
                    }
                    return (state.io, nil)
                }
                if let immediate = action.immediate {
                    continuation.resume(returning: immediate)
                    return
                }
                guard let channel = action.channel else { return }
                var buffer = channel.allocator.buffer(capacity: request.utf8.count + 1)
                buffer.writeString(request)
                buffer.writeInteger(UInt8(ascii: "\n"))
                // A failed write means the process is gone; its exit answers the request.
                channel.writeAndFlush(buffer, promise: nil)
            }
        } onCancel: {
            state.withLockedValue { $0.cancelRequested = true }
            resolvePending(.cancelled)
        }
    }

    /// Kills the process and everything it started (its process group), if it still runs.
    func kill() {
        state.withLockedValue { state in
            guard !state.exited else { return }
            signalGroup(pid, SIGKILL)
        }
    }

    /// Returns once the process has been reaped and its pipes are closed.
    func waitUntilEnded() async {
        try? await endPromise.futureResult.get()
    }

    // MARK: - Events

    private func resolvePending(_ outcome: Outcome) {
        let taken = state.withLockedValue { state -> (CheckedContinuation<Outcome, Never>, Scheduled<Void>?)? in
            guard let pending = state.pending else { return nil }
            state.pending = nil
            defer { state.pendingTimeout = nil }
            return (pending, state.pendingTimeout)
        }
        guard let (continuation, timeout) = taken else { return }
        timeout?.cancel()
        continuation.resume(returning: outcome)
    }

    private func answerLine(_ line: String) {
        // Blank lines carry nothing; some wrappers print one before their answer.
        guard !line.allSatisfy(\.isWhitespace) else { return }
        let expected = state.withLockedValue { state -> Bool in
            if state.pending != nil { return true }
            state.spokeOutOfTurn = true
            return false
        }
        if expected {
            resolvePending(.line(line))
        } else {
            logger.warning("Function wrote to stdout while not answering a request; restarting it. Functions must write logs to stderr.", metadata: ["function": "\(functionName)", "line": "\(line.prefix(200))"])
            kill()
        }
    }

    private func logLine(_ line: String) {
        logger.info("\(line)", metadata: ["function": "\(functionName)"])
        state.withLockedValue { state in
            state.recentLog.append(line)
            if state.recentLog.count > Self.keptLogLines { state.recentLog.removeFirst() }
        }
    }

    private func pipeClosed(stdout: Bool) {
        state.withLockedValue { state in
            if stdout { state.stdoutOpen = false } else { state.stderrOpen = false }
        }
        finishIfEnded()
    }

    /// Waits for the process on a dedicated thread: `waitid` blocks, and must not do so on a
    /// cooperative or event loop thread.
    private func watchExit() {
        let pid = pid
        Thread.detachNewThread { [self] in
            var info = siginfo_t()
            var result: Int32
            repeat {
                result = waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT)
            } while result == -1 && errno == EINTR
            // Exited but not reaped yet: its pid cannot be reused until waitpid below, so
            // marking it exited first means kill() never signals a stranger.
            state.withLockedValue { $0.exited = true }
            var status: Int32 = 0
            var reaped: pid_t
            repeat {
                reaped = waitpid(pid, &status, 0)
            } while reaped == -1 && errno == EINTR
            let exit = reaped == pid ? ProcessExit(waitStatus: status) : .unknown
            state.withLockedValue { $0.exit = exit }
            eventLoop.scheduleTask(in: Self.pipeDrainGrace) { [self] in
                state.withLockedValue { $0.graceExpired = true }
                finishIfEnded()
            }
            finishIfEnded()
        }
    }

    /// Ends the process's story once it has exited and its output is read: the pending
    /// request, if any, learns it ended, and the pipes are closed.
    private func finishIfEnded() {
        let finished = state.withLockedValue { state -> (exit: ProcessExit, lastLog: String?, channels: [any Channel])? in
            guard !state.ended, let exit = state.exit else { return nil }
            guard (!state.stdoutOpen && !state.stderrOpen) || state.graceExpired else { return nil }
            state.ended = true
            return (exit, state.recentLog.last, [state.io, state.log].compactMap { $0 })
        }
        guard let finished else { return }
        resolvePending(.ended(finished.exit, lastLog: finished.lastLog))
        for channel in finished.channels { channel.close(promise: nil) }
        endPromise.succeed(())
    }
}

/// Signals a process group; outside the class because its `kill()` hides the C function.
private func signalGroup(_ leader: pid_t, _ signal: Int32) {
    _ = kill(-leader, signal)
}
