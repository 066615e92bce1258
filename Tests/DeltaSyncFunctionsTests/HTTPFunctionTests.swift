import DeltaSyncCore
import DeltaSyncFunctions
import Foundation
import Testing

/// ``HTTPFunction`` against a real HTTP server: a short python3 script answering by path.
@Suite struct HTTPFunctionTests {
    static let serverScript = #"""
        import json, os, sys, threading, time
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def answer(self, status, body, headers=()):
                data = body.encode()
                self.send_response(status)
                for name, value in headers:
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_POST(self):
                event = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                if self.path == "/echo":
                    self.answer(200, json.dumps({
                        "event": event,
                        "contentType": self.headers["Content-Type"],
                        "requestID": self.headers["x-amz-request-id"],
                        "runtimeRequestID": self.headers["lambda-runtime-aws-request-id"],
                    }))
                elif self.path == "/thrown":
                    self.answer(500, json.dumps({"errorMessage": "No such order", "errorType": "ValueError"}))
                elif self.path == "/function-error":
                    self.answer(200, json.dumps({"errorMessage": "boom", "trace": []}), [("X-Amz-Function-Error", "Unhandled")])
                elif self.path == "/gateway":
                    self.answer(502, "<html><body>Bad Gateway</body></html>")
                elif self.path == "/empty":
                    self.answer(200, "")
                elif self.path == "/text":
                    self.answer(200, "hello there")
                elif self.path == "/slow":
                    time.sleep(3)
                    self.answer(200, "1")

        def exit_at_end_of_input():
            sys.stdin.read()
            os._exit(0)

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        server.daemon_threads = True
        threading.Thread(target=exit_at_end_of_input, daemon=True).start()
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """#

    /// The suite's server, started once. It exits when its stdin closes, that is when the test
    /// process ends, so no test has to stop it.
    static let server = SharedServer()

    actor SharedServer {
        private var started: Task<String, any Error>?
        private var stdin: Pipe?

        /// The server's base URL, starting it on first use.
        func url() async throws -> String {
            if let started { return try await started.value }
            let task = Task { try await start() }
            started = task
            return try await task.value
        }

        /// Starts the script and reads the port it prints. The read blocks, so it runs on a
        /// thread of its own, never on one of the concurrency pool's few threads.
        private func start() async throws -> String {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("http-function-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let script = directory.appendingPathComponent("server.py")
            try serverScript.write(to: script, atomically: true, encoding: .utf8)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", script.path]
            let output = Pipe()
            let input = Pipe()
            process.standardOutput = output
            process.standardInput = input
            try process.run()
            // Kept open for the life of the test process; the server exits at its end of file.
            stdin = input
            let printed: Data = await withCheckedContinuation { continuation in
                Thread.detachNewThread {
                    var printed = Data()
                    while !printed.contains(UInt8(ascii: "\n")) {
                        let chunk = output.fileHandleForReading.availableData
                        if chunk.isEmpty { break }
                        printed.append(chunk)
                    }
                    continuation.resume(returning: printed)
                }
            }
            guard let port = Int(String(decoding: printed, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
                throw CocoaError(.fileReadCorruptFile)
            }
            return "http://127.0.0.1:\(port)"
        }
    }

    func withServer(_ body: (String) async throws -> Void) async throws {
        try await body(Self.server.url())
    }

    func failure(_ function: HTTPFunction, timeout: Duration = .seconds(60)) async -> FunctionFailure? {
        do {
            _ = try await function.invoke(LambdaInvocation(functionName: "f", event: ["n": 1], timeout: timeout))
            return nil
        } catch {
            return error
        }
    }

    @Test func resultIsTheJSONBody() async throws {
        try await withServer { base in
            let function = HTTPFunction(url: base + "/echo")
            let event: JSONValue = ["arguments": ["msg": "hi"], "typeName": "Query"]
            let result = try await function.invoke(LambdaInvocation(functionName: "echo", event: event, requestID: "req-1"))
            #expect(result["event"] == event)
            #expect(result["contentType"] == "application/json")
            #expect(result["requestID"] == "req-1")
            #expect(result["runtimeRequestID"] == "req-1")

            #expect(try await HTTPFunction(url: base + "/empty").invoke(LambdaInvocation(functionName: "e", event: [:])) == .null)
        }
    }

    @Test func jsonErrorWithStatus500IsTheFunctionsError() async throws {
        try await withServer { base in
            let failure = await failure(HTTPFunction(url: base + "/thrown"))
            #expect(failure == FunctionFailure(errorType: "ValueError", errorMessage: "No such order"))
        }
    }

    @Test func functionErrorHeaderWith200IsAFailure() async throws {
        try await withServer { base in
            let failure = await failure(HTTPFunction(url: base + "/function-error"))
            #expect(failure == FunctionFailure(errorType: "Error", errorMessage: "boom"))
        }
    }

    @Test func nonJSONErrorQuotesTheBody() async throws {
        try await withServer { base in
            let failure = await failure(HTTPFunction(url: base + "/gateway"))
            #expect(failure == FunctionFailure(
                errorType: "Runtime.HTTPError",
                errorMessage: "The function endpoint \(base)/gateway answered HTTP 502: \"<html><body>Bad Gateway</body></html>\""))
        }
    }

    @Test func nonJSONSuccessIsAnInvalidResponse() async throws {
        try await withServer { base in
            let failure = await failure(HTTPFunction(url: base + "/text"))
            #expect(failure?.errorType == "Runtime.InvalidResponse")
            #expect(failure?.errorMessage.contains("\"hello there\"") == true)
        }
    }

    @Test func slowEndpointTimesOut() async throws {
        try await withServer { base in
            let failure = await failure(HTTPFunction(url: base + "/slow"), timeout: .milliseconds(300))
            #expect(failure == .timedOut(after: .milliseconds(300)))
        }
    }

    @Test func nothingListening() async throws {
        let failure = await failure(HTTPFunction(url: "http://127.0.0.1:1/fn"), timeout: .seconds(3))
        #expect(failure?.errorType == "Runtime.ConnectionError")
        #expect(failure?.errorMessage.hasPrefix("Nothing answers at http://127.0.0.1:1/fn") == true, "\(String(describing: failure))")
        #expect(failure?.errorMessage.hasSuffix("Start the function's server, or fix its URL where the function is configured.") == true)
    }
}
