import DeltaSyncCore
import Logging
import NIOConcurrencyHelpers

/// A function run by a local process that is started once and kept warm, the way Lambda
/// keeps an execution environment: an Amplify project's Node or Python handler (through
/// ``HandlerRuntime``) or any command that speaks the line protocol below.
///
/// ```swift
/// let source = "amplify/backend/function/echo/src"
/// let function = LocalProcessFunction(
///     name: "echo",
///     configuration: LocalProcessConfiguration(
///         command: try HandlerRuntime.node.command(handler: "index.handler", sourceDirectory: source, bootstrapDirectory: ".deltasync/bootstrap"),
///         workingDirectory: source,
///         environment: ["PATH": "/usr/local/bin:/usr/bin:/bin"]
///     ),
///     logger: Logger(label: "functions")
/// )
/// let answer = try await function.invoke(LambdaInvocation(functionName: "echo", event: ["arguments": ["msg": "hi"]]))
/// await function.shutdown()
/// ```
///
/// ## The line protocol
///
/// Every message is one line of JSON text ending in `\n`. Any program that follows these rules
/// can be a function:
///
/// - **Request** (one line on the process's stdin per invocation):
///   `{"event": <AppSync's event>, "context": {"functionName": "…", "awsRequestId": "…",
///   "deadlineMs": <epoch milliseconds>, "memoryLimitInMB": 128,
///   "invokedFunctionArn": "arn:aws:lambda:us-east-1:000000000000:function:<name>"}}`
/// - **Answer** (one line on stdout): `{"result": <any JSON>}` or
///   `{"error": {"errorType": "…", "errorMessage": "…"}}`. Blank lines are ignored.
/// - A process gets one request at a time and is reused for the next one; concurrent
///   invocations use other processes, up to ``LocalProcessConfiguration/maxProcesses``,
///   and wait for a free one beyond that.
/// - **stderr is the function's log**: each line is logged at info level with metadata
///   `function: <name>`, and the last lines explain a crash. Anything else on stdout is a
///   protocol error: the invocation fails with `Runtime.InvalidResponse` and the process is
///   killed.
/// - The process must exit when its stdin reaches end of file, so that nothing outlives a
///   server that crashed.
///
/// What a caller sees when things go wrong:
///
/// | What happened | `errorType` |
/// |---|---|
/// | The executable cannot be started | `Runtime.StartError` (saying what to check) |
/// | The process exits before answering | `Runtime.ExitError`: `RequestId: <id> Error: Runtime exited with error: exit status N` and the last stderr line |
/// | No answer within `invocation.timeout` | `TimeoutError` (``FunctionFailure/timedOut(after:)``); the process is killed |
/// | The calling task is cancelled | `Runtime.Cancelled`; the process is killed |
///
/// After any of these, the next invocation starts a fresh process. Processes run in a
/// process group of their own, and a kill stops the whole group.
public final class LocalProcessFunction: LambdaFunction {
    /// The name the function is configured under; it labels the function's log lines.
    public let name: String
    public let configuration: LocalProcessConfiguration
    private let logger: Logger
    private let pool = NIOLockedValueBox(Pool())

    /// Which processes exist, and who waits for one.
    private struct Pool {
        /// Running processes no invocation is using, most recently used last.
        var idle: [FunctionProcess] = []
        /// Every process started since the last shutdown, idle or busy.
        var processes: [ObjectIdentifier: FunctionProcess] = [:]
        /// Processes running or being started; at most `maxProcesses`.
        var slotsInUse = 0
        var waiters: [(id: Int, continuation: CheckedContinuation<Lease, Never>)] = []
        var nextWaiterID = 0
        /// Bumped by shutdown, so that a process started before it is not kept after it.
        var generation = 0
    }

    /// What an invocation gets to run on.
    private enum Lease: Sendable {
        case warm(FunctionProcess)
        /// A slot to start a process in, valid for the given generation.
        case start(generation: Int)
        case cancelled
    }

    public init(name: String, configuration: LocalProcessConfiguration, logger: Logger) {
        self.name = name
        self.configuration = configuration
        self.logger = logger
    }

    public func invoke(_ invocation: LambdaInvocation) async throws(FunctionFailure) -> JSONValue {
        let process = try await acquire()
        let outcome = await process.exchange(LineProtocol.request(for: invocation), timeout: invocation.timeout)
        let failure: FunctionFailure
        switch outcome {
        case .line(let line):
            switch LineProtocol.answer(line) {
            case .result(let value)?:
                release(process, reusable: true)
                return value
            case .error(let failure)?:
                release(process, reusable: true)
                throw failure
            case nil:
                failure = LineProtocol.invalidResponse(line, functionName: name)
            }
        case .ended(let exit, let lastLog):
            failure = LineProtocol.exitError(exit, lastLog: lastLog, requestID: invocation.requestID)
        case .timedOut:
            failure = FunctionFailure.timedOut(after: invocation.timeout)
        case .cancelled:
            // The process may still answer, into the next request: it cannot be reused.
            failure = Self.cancelled
        }
        release(process, reusable: false)
        // Killed: once the caller hears of the failure, the process is gone (and reaped).
        await process.waitUntilEnded()
        throw failure
    }

    /// Kills every process this function started and waits until they are gone. Later
    /// invocations start new ones; invocations running now fail with `Runtime.ExitError`.
    public func shutdown() async {
        let (victims, wakeups) = pool.withLockedValue { pool -> ([FunctionProcess], [(CheckedContinuation<Lease, Never>, Lease)]) in
            pool.generation += 1
            let victims = Array(pool.processes.values)
            pool.processes = [:]
            pool.idle = []
            pool.slotsInUse = 0
            var wakeups: [(CheckedContinuation<Lease, Never>, Lease)] = []
            while pool.slotsInUse < maxProcesses, !pool.waiters.isEmpty {
                pool.slotsInUse += 1
                wakeups.append((pool.waiters.removeFirst().continuation, .start(generation: pool.generation)))
            }
            return (victims, wakeups)
        }
        for victim in victims { victim.kill() }
        for (continuation, lease) in wakeups { continuation.resume(returning: lease) }
        for victim in victims { await victim.waitUntilEnded() }
    }

    // MARK: - Pool

    private var maxProcesses: Int { max(configuration.maxProcesses, 1) }

    private static let cancelled = FunctionFailure(errorType: "Runtime.Cancelled", errorMessage: "The invocation was cancelled before the function answered.")

    /// A process to run one invocation on: a warm idle one, a new one if there is room, or
    /// the next one to become free.
    private func acquire() async throws(FunctionFailure) -> FunctionProcess {
        while true {
            let (immediate, unusable) = pool.withLockedValue { pool -> (Lease?, [FunctionProcess]) in
                var unusable: [FunctionProcess] = []
                while let process = pool.idle.popLast() {
                    if process.isUsable { return (.warm(process), unusable) }
                    pool.processes[ObjectIdentifier(process)] = nil
                    pool.slotsInUse -= 1
                    unusable.append(process)
                }
                if pool.slotsInUse < maxProcesses {
                    pool.slotsInUse += 1
                    return (.start(generation: pool.generation), unusable)
                }
                return (nil, unusable)
            }
            for process in unusable { process.kill() }
            let lease: Lease
            if let immediate {
                lease = immediate
            } else {
                lease = await waitForLease()
            }
            switch lease {
            case .warm(let process):
                return process
            case .cancelled:
                throw Self.cancelled
            case .start(let generation):
                let process: FunctionProcess
                do {
                    process = try await FunctionProcess.start(configuration: configuration, functionName: name, logger: logger)
                } catch {
                    giveBackSlot(generation: generation)
                    throw error
                }
                let current = pool.withLockedValue { pool -> Bool in
                    guard pool.generation == generation else { return false }
                    pool.processes[ObjectIdentifier(process)] = process
                    return true
                }
                if current { return process }
                // shutdown() ran while it started: it belongs to no one, so stop it and try again.
                process.kill()
            }
        }
    }

    /// Waits in line for a process; cancellation leaves the line.
    private func waitForLease() async -> Lease {
        let id = pool.withLockedValue { pool in
            pool.nextWaiterID += 1
            return pool.nextWaiterID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Lease, Never>) in
                pool.withLockedValue { $0.waiters.append((id, continuation)) }
                if Task.isCancelled { leaveLine(id) }
            }
        } onCancel: {
            leaveLine(id)
        }
    }

    private func leaveLine(_ id: Int) {
        let waiter = pool.withLockedValue { pool -> CheckedContinuation<Lease, Never>? in
            guard let index = pool.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return pool.waiters.remove(at: index).continuation
        }
        waiter?.resume(returning: .cancelled)
    }

    /// A process start failed: its slot goes to the next waiter, who will try again.
    private func giveBackSlot(generation: Int) {
        let waiter = pool.withLockedValue { pool -> (CheckedContinuation<Lease, Never>, Lease)? in
            guard pool.generation == generation else { return nil }
            if !pool.waiters.isEmpty {
                return (pool.waiters.removeFirst().continuation, .start(generation: generation))
            }
            pool.slotsInUse -= 1
            return nil
        }
        if let (continuation, lease) = waiter { continuation.resume(returning: lease) }
    }

    /// Returns a process after an invocation: to the next waiter or the idle list if it can
    /// serve again, else it is killed and its slot passed on.
    private func release(_ process: FunctionProcess, reusable: Bool) {
        let (kill, handoff) = pool.withLockedValue { pool -> (Bool, (CheckedContinuation<Lease, Never>, Lease)?) in
            let id = ObjectIdentifier(process)
            guard pool.processes[id] != nil else { return (true, nil) }  // shut down meanwhile
            if reusable && process.isUsable {
                if !pool.waiters.isEmpty {
                    return (false, (pool.waiters.removeFirst().continuation, .warm(process)))
                }
                pool.idle.append(process)
                return (false, nil)
            }
            pool.processes[id] = nil
            if !pool.waiters.isEmpty {
                return (true, (pool.waiters.removeFirst().continuation, .start(generation: pool.generation)))
            }
            pool.slotsInUse -= 1
            return (true, nil)
        }
        if kill { process.kill() }
        if let (continuation, lease) = handoff { continuation.resume(returning: lease) }
    }
}
