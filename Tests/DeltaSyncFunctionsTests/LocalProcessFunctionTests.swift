#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DeltaSyncCore
import DeltaSyncFunctions
import DeltaSyncTestSupport
import Foundation
import Logging
import Testing

/// Real `node`, `python3` and `sh` processes behind ``LocalProcessFunction``: what a developer
/// sees from their handler, its errors, its logs and its lifecycle.
struct LocalProcessFunctionTests {
    // MARK: - Node

    @Test func nodeHandlerAnswersAndStaysWarm() async throws {
        try await withHandler(.node, files: ["index.js": """
            let calls = 0;
            exports.handler = async (event, context) => {
              calls += 1;
              return { doubled: event.arguments.n * 2, calls, name: context.functionName,
                       remaining: context.getRemainingTimeInMillis() > 0, version: context.functionVersion };
            };
            """]) { function, _ in
            let first = try await function.invoke(call(["n": 21]))
            #expect(first == ["doubled": 42, "calls": 1, "name": "fn", "remaining": true, "version": "$LATEST"])
            let second = try await function.invoke(call(["n": 2]))
            #expect(second["calls"] == 2)  // same process, module state kept
        }
    }

    @Test func nodePromiseCallbackAndUndefinedResults() async throws {
        try await withHandler(.node, files: ["lib/app.js": """
            exports.promise = (event) => new Promise((resolve) => setTimeout(() => resolve('later'), 5));
            exports.callback = (event, context, callback) => { setTimeout(() => callback(null, { via: 'callback' }), 5); };
            exports.nothing = async () => {};
            """], handler: "lib/app.promise") { function, _ in
            let promised = try await function.invoke(call([:]))
            #expect(promised == "later")
        }
        try await withHandler(.node, files: ["lib/app.js": "exports.callback = (event, context, callback) => { setTimeout(() => callback(null, { via: 'callback' }), 5); };"], handler: "lib/app.callback") { function, _ in
            let calledBack = try await function.invoke(call([:]))
            #expect(calledBack == ["via": "callback"])
        }
        try await withHandler(.node, files: ["index.mjs": "export const handler = async () => undefined;"]) { function, _ in
            let undefinedResult = try await function.invoke(call([:]))
            #expect(undefinedResult == .null)
        }
    }

    @Test func nodeConsoleOutputIsLoggedNotAnswered() async throws {
        let logs = RecordedLog()
        try await withHandler(.node, files: ["index.js": """
            exports.handler = async (event) => {
              console.log('hello from console.log', event.arguments.n);
              console.error('and console.error');
              process.stdout.write('raw stdout write\\n');
              return 'clean';
            };
            """], logger: logs.logger) { function, _ in
            let answer = try await function.invoke(call(["n": 1]))
            #expect(answer == "clean")
            await function.shutdown()  // every stderr line has been read once the process is gone
        }
        let lines = logs.recorded.map(\.message)
        #expect(lines.contains("hello from console.log 1"))
        #expect(lines.contains("and console.error"))
        #expect(lines.contains("raw stdout write"))
        #expect(Set(logs.recorded.compactMap { $0.metadata["function"] }) == ["fn"])
    }

    @Test func nodeErrorsAreReportedAsLambdaDoes() async throws {
        try await withHandler(.node, files: ["index.js": """
            exports.error = async () => { throw new TypeError('No such order'); };
            exports.text = async () => { throw 'plain words'; };
            exports.circular = async () => { const a = {}; a.self = a; return a; };
            """], handler: "index.error") { function, _ in
            await expectFailure(function, type: "TypeError", message: "No such order")
        }
        try await withHandler(.node, files: ["index.js": "exports.text = async () => { throw 'plain words'; };"], handler: "index.text") { function, _ in
            await expectFailure(function, type: "string", message: "plain words")
        }
        try await withHandler(.node, files: ["index.js": "exports.circular = async () => { const a = {}; a.self = a; return a; };"], handler: "index.circular") { function, _ in
            await expectFailure(function, type: "Runtime.MarshalError", containing: "circular")
        }
    }

    @Test func nodeLoadErrorsAnswerEveryRequest() async throws {
        try await withHandler(.node, files: ["index.js": "exports.other = () => 1;"]) { function, _ in
            await expectFailure(function, type: "Runtime.HandlerNotFound", message: "index.handler is undefined or not exported")
            // The process stays up and keeps answering the same way.
            await expectFailure(function, type: "Runtime.HandlerNotFound", message: "index.handler is undefined or not exported")
        }
        try await withHandler(.node, files: ["other.js": ""]) { function, _ in
            await expectFailure(function, type: "Runtime.ImportModuleError", containing: "Error: Cannot find module 'index'")
        }
        try await withHandler(.node, files: ["index.js": "exports.handler = async () => {"]) { function, _ in
            await expectFailure(function, type: "Runtime.UserCodeSyntaxError", containing: "SyntaxError")
        }
    }

    @Test func nodeTimeoutKillsTheProcessAndTheNextCallGetsAFreshOne() async throws {
        try await withHandler(.node, files: ["index.js": """
            exports.handler = async (event) => event.arguments.hang ? new Promise(() => {}) : process.pid;
            """]) { function, _ in
            let first = try await function.invoke(call([:]))
            let firstPID = try #require(first.intValue)
            do throws(FunctionFailure) {
                _ = try await function.invoke(call(["hang": true], timeout: .milliseconds(500)))
                Issue.record("a handler that never answers must time out")
            } catch {
                #expect(error == FunctionFailure.timedOut(after: .milliseconds(500)))
            }
            let next = try await function.invoke(call([:]))
            let nextPID = try #require(next.intValue)
            #expect(nextPID != firstPID)
            #expect(!processExists(firstPID))
        }
    }

    @Test func cancelledInvocationDiscardsItsProcess() async throws {
        let logs = RecordedLog()
        try await withHandler(.node, files: ["index.js": """
            exports.handler = async (event) => {
              if (!event.arguments.hang) return process.pid;
              console.log(`started in ${process.pid}`);
              return new Promise(() => {});
            };
            """], logger: logs.logger) { function, _ in
            let hanging = Task { try await function.invoke(call(["hang": true])) }
            let started = try #require(await logs.stream.first { $0.message.hasPrefix("started in ") }?.message)
            let pid = try #require(Int(started.dropFirst("started in ".count)))
            hanging.cancel()
            let outcome = await hanging.result
            #expect(throws: FunctionFailure(errorType: "Runtime.Cancelled", errorMessage: "The invocation was cancelled before the function answered.")) { try outcome.get() }
            #expect(!processExists(pid))
            let next = try await function.invoke(call([:]))
            #expect(next.intValue != pid)
        }
    }

    @Test func concurrentCallsRunInParallelProcesses() async throws {
        // Each call waits until all three have started: it only answers if three processes
        // run at once.
        let rendezvous = try temporaryDirectory()
        try await withHandler(.node, files: ["index.js": """
            const fs = require('fs');
            exports.handler = async (event) => {
              fs.writeFileSync(`${event.arguments.dir}/${process.pid}`, '');
              while (fs.readdirSync(event.arguments.dir).length < 3) await new Promise((r) => setTimeout(r, 10));
              return process.pid;
            };
            """], maxProcesses: 3) { function, _ in
            let pids = try await withThrowingTaskGroup(of: JSONValue.self) { group in
                for _ in 0..<3 {
                    group.addTask { try await function.invoke(call(["dir": .string(rendezvous)], timeout: .seconds(5))) }
                }
                return try await group.reduce(into: Set<JSONValue>()) { $0.insert($1) }
            }
            #expect(pids.count == 3)
        }
    }

    @Test func callsBeyondMaxProcessesWaitForAWarmOne() async throws {
        try await withHandler(.node, files: ["index.js": """
            let calls = 0;
            exports.handler = async () => { calls += 1; await new Promise((r) => setTimeout(r, 20)); return calls; };
            """], maxProcesses: 1) { function, _ in
            let answers = try await withThrowingTaskGroup(of: JSONValue.self) { group in
                for _ in 0..<3 { group.addTask { try await function.invoke(call([:])) } }
                return try await group.reduce(into: [JSONValue]()) { $0.append($1) }
            }
            #expect(Set(answers) == [1, 2, 3])  // one process served all three, in turn
        }
    }

    // MARK: - Python

    @Test func pythonHandlerAnswersAndPrintIsNotAnAnswer() async throws {
        try await withHandler(.python, files: ["index.py": """
            import decimal
            calls = 0
            def handler(event, context):
                global calls
                calls += 1
                print("noise that must not be taken for an answer")
                return {"doubled": event["arguments"]["n"] * 2, "calls": calls, "name": context.function_name,
                        "price": decimal.Decimal("2.5"), "remaining": context.get_remaining_time_in_millis() > 0}
            """]) { function, _ in
            let first = try await function.invoke(call(["n": 4]))
            #expect(first == ["doubled": 8, "calls": 1, "name": "fn", "price": 2.5, "remaining": true])
            let second = try await function.invoke(call(["n": 1]))
            #expect(second["calls"] == 2)
        }
    }

    @Test func pythonErrors() async throws {
        try await withHandler(.python, files: ["index.py": """
            class OrderNotFound(Exception):
                pass
            def handler(event, context):
                raise OrderNotFound("order 7 does not exist")
            """]) { function, _ in
            await expectFailure(function, type: "OrderNotFound", message: "order 7 does not exist")
        }
        try await withHandler(.python, files: ["index.py": "def handler(event, context):\n    return {1, 2}\n"]) { function, _ in
            await expectFailure(function, type: "Runtime.MarshalError", containing: "Unable to marshal response")
        }
        try await withHandler(.python, files: ["index.py": "def handler(event, context)\n    return 1\n"]) { function, _ in
            // As Lambda reports it; the message names the module and the reason.
            await expectFailure(function, type: "Runtime.UserCodeSyntaxError", containing: "Syntax error in module 'index'")
        }
        try await withHandler(.python, files: ["index.py": "import not_installed_anywhere\n"]) { function, _ in
            await expectFailure(function, type: "Runtime.ImportModuleError", message: "Unable to import module 'index': No module named 'not_installed_anywhere'")
        }
        try await withHandler(.python, files: ["index.py": "x = 1\n"]) { function, _ in
            await expectFailure(function, type: "Runtime.HandlerNotFound", containing: "handler")
        }
    }

    // MARK: - Any command

    @Test func plainCommandSpeakingTheProtocol() async throws {
        let script = #"while read -r line; do echo "log: got a request" >&2; echo '{"result": {"from": "sh"}}'; done"#
        try await withCommand(["sh", "-c", script]) { function in
            let first = try await function.invoke(call([:]))
            #expect(first == ["from": "sh"])
            let second = try await function.invoke(call([:]))
            #expect(second == ["from": "sh"])
        }
        let failing = #"while read -r line; do echo '{"error": {"errorType": "Custom", "errorMessage": "nope"}}'; done"#
        try await withCommand(["sh", "-c", failing]) { function in
            await expectFailure(function, type: "Custom", message: "nope")
        }
    }

    @Test func commandThatPrintsGarbageFailsWithInvalidResponse() async throws {
        try await withCommand(["sh", "-c", "while read -r line; do echo 'Listening on port 3000'; done"]) { function in
            await expectFailure(function, type: "Runtime.InvalidResponse", containing: "Listening on port 3000")
            await expectFailure(function, type: "Runtime.InvalidResponse", containing: "logs to stderr")
        }
    }

    @Test func commandThatExitsFailsWithExitError() async throws {
        try await withCommand(["sh", "-c", "read -r line; echo 'Traceback: something broke' >&2; exit 3"]) { function in
            let request = LambdaInvocation(functionName: "fn", event: [:], requestID: "req-1")
            do throws(FunctionFailure) {
                _ = try await function.invoke(request)
                Issue.record("expected an exit error")
            } catch {
                #expect(error.errorType == "Runtime.ExitError")
                #expect(error.errorMessage == "RequestId: req-1 Error: Runtime exited with error: exit status 3\nTraceback: something broke")
            }
            // A fresh process serves the next call (and fails the same way).
            await expectFailure(function, type: "Runtime.ExitError", containing: "exit status 3")
        }
    }

    @Test func commandThatDoesNotExistFailsWithStartError() async throws {
        try await withCommand(["deltasync-no-such-command"]) { function in
            await expectFailure(function, type: "Runtime.StartError", containing: "deltasync-no-such-command")
            await expectFailure(function, type: "Runtime.StartError", containing: "PATH")
        }
        try await withCommand(["/nonexistent/bin/tool"]) { function in
            await expectFailure(function, type: "Runtime.StartError", containing: "/nonexistent/bin/tool does not exist")
        }
    }

    @Test func environmentIsExactlyTheConfiguredOne() async throws {
        let script = #"while read -r line; do printf '{"result": "%s|%s|%s"}\n' "$GREETING" "${HOME:-unset}" "$(pwd)"; done"#
        let directory = try temporaryDirectory()
        let function = LocalProcessFunction(
            name: "fn",
            configuration: LocalProcessConfiguration(command: ["/bin/sh", "-c", script], workingDirectory: directory, environment: ["GREETING": "hi"]),
            logger: Logger(label: "test")
        )
        let answer = try await function.invoke(call([:]))
        await function.shutdown()
        let resolved = URL(fileURLWithPath: directory).resolvingSymlinksInPath().path
        #expect(answer == .string("hi|unset|\(resolved)") || answer == .string("hi|unset|\(directory)"))
    }

    @Test func shutdownLeavesNoProcessBehind() async throws {
        try await withHandler(.node, files: ["index.js": "exports.handler = async () => process.pid;"]) { function, _ in
            let before = try await function.invoke(call([:]))
            let pid = try #require(before.intValue)
            #expect(processExists(pid))
            await function.shutdown()
            #expect(!processExists(pid))
            // It starts again on demand.
            let after = try await function.invoke(call([:]))
            let next = try #require(after.intValue)
            #expect(next != pid)
        }
    }

    @Test func closingStdinEndsTheBootstraps() async throws {
        // What happens when the server dies: its pipe ends close and the processes exit.
        for runtime in [HandlerRuntime.node, .python] {
            let source = try temporaryDirectory()
            try "exports.handler = async () => 1;".write(toFile: "\(source)/index.js", atomically: true, encoding: .utf8)
            try "def handler(e, c):\n    return 1\n".write(toFile: "\(source)/index.py", atomically: true, encoding: .utf8)
            let command = try runtime.command(handler: "index.handler", sourceDirectory: source, bootstrapDirectory: try temporaryDirectory())
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = command
            let stdin = Pipe()
            process.standardInput = stdin
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            let exited = AsyncStream<Int32>.makeStream()
            process.terminationHandler = { exited.continuation.yield($0.terminationStatus) }
            try process.run()
            try stdin.fileHandleForWriting.close()
            var statuses = exited.stream.makeAsyncIterator()
            #expect(await statuses.next() == 0)
        }
    }

    @Test func handlerRuntimeWritesItsBootstrapAndRepairsIt() throws {
        let bootstrapDirectory = try temporaryDirectory() + "/nested/bootstrap"
        let command = try HandlerRuntime.python.command(handler: "lib/app.main", sourceDirectory: "/srv/fn/src", bootstrapDirectory: bootstrapDirectory)
        #expect(command == ["python3", "-u", bootstrapDirectory + "/bootstrap.py", "/srv/fn/src", "lib/app.main"])
        let written = try String(contentsOfFile: bootstrapDirectory + "/bootstrap.py", encoding: .utf8)
        try "# edited by hand".write(toFile: bootstrapDirectory + "/bootstrap.py", atomically: true, encoding: .utf8)
        _ = try HandlerRuntime.python.command(handler: "index.handler", sourceDirectory: "/srv/fn/src", bootstrapDirectory: bootstrapDirectory)
        #expect(try String(contentsOfFile: bootstrapDirectory + "/bootstrap.py", encoding: .utf8) == written)
        #expect(throws: FunctionFailure.self) {
            try HandlerRuntime.node.command(handler: "index", sourceDirectory: "/srv", bootstrapDirectory: bootstrapDirectory)
        }
    }

    // MARK: - Helpers

    private func withHandler(
        _ runtime: HandlerRuntime,
        files: [String: String],
        handler: String = "index.handler",
        maxProcesses: Int = 4,
        logger: Logger = Logger(label: "test"),
        _ body: (LocalProcessFunction, String) async throws -> Void
    ) async throws {
        let source = try temporaryDirectory()
        for (path, contents) in files {
            let url = URL(fileURLWithPath: source).appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try contents.write(to: url, atomically: true, encoding: .utf8)
        }
        let command = try runtime.command(handler: handler, sourceDirectory: source, bootstrapDirectory: try temporaryDirectory())
        let function = LocalProcessFunction(
            name: "fn",
            configuration: LocalProcessConfiguration(command: command, workingDirectory: source, environment: ["PATH": searchPath], maxProcesses: maxProcesses),
            logger: logger
        )
        do {
            try await body(function, source)
        } catch {
            await function.shutdown()
            throw error
        }
        await function.shutdown()
    }

    private func withCommand(_ command: [String], _ body: (LocalProcessFunction) async throws -> Void) async throws {
        let function = LocalProcessFunction(name: "fn", configuration: LocalProcessConfiguration(command: command, environment: ["PATH": searchPath]), logger: Logger(label: "test"))
        do {
            try await body(function)
        } catch {
            await function.shutdown()
            throw error
        }
        await function.shutdown()
    }

    private var searchPath: String { ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin" }

    private func expectFailure(_ function: LocalProcessFunction, type: String, message: String? = nil, containing fragment: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) async {
        do throws(FunctionFailure) {
            let value = try await function.invoke(call([:]))
            Issue.record("expected \(type), got \(value.jsonText)", sourceLocation: sourceLocation)
        } catch {
            #expect(error.errorType == type, "\(error.errorMessage)", sourceLocation: sourceLocation)
            if let message { #expect(error.errorMessage == message, sourceLocation: sourceLocation) }
            if let fragment { #expect(error.errorMessage.contains(fragment), "\(error.errorMessage)", sourceLocation: sourceLocation) }
        }
    }
}

private func call(_ arguments: [String: JSONValue], timeout: Duration = .seconds(10)) -> LambdaInvocation {
    LambdaInvocation(functionName: "fn", event: ["arguments": .object(arguments), "fieldName": "f"], timeout: timeout)
}

private func temporaryDirectory() throws -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("deltasync-process-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url.path
}

private func processExists(_ pid: Int) -> Bool {
    kill(pid_t(pid), 0) == 0 || errno == EPERM
}
