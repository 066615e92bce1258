import DeltaSyncCore
import Foundation

/// The one-line-per-message protocol between ``LocalProcessFunction`` and its processes
/// (documented on ``LocalProcessFunction``).
enum LineProtocol {
    /// What an answer line says.
    enum Answer: Equatable {
        case result(JSONValue)
        case error(FunctionFailure)
    }

    /// The request line (without its newline) for one invocation.
    static func request(for invocation: LambdaInvocation, now: Date = Date()) -> String {
        let timeoutMilliseconds = invocation.timeout.components.seconds * 1000 + invocation.timeout.components.attoseconds / 1_000_000_000_000_000
        let deadline = Int(now.timeIntervalSince1970 * 1000) + Int(timeoutMilliseconds)
        let context: JSONValue = [
            "functionName": .string(invocation.functionName),
            "awsRequestId": .string(invocation.requestID),
            "deadlineMs": .int(deadline),
            "memoryLimitInMB": 128,
            "invokedFunctionArn": .string("arn:aws:lambda:us-east-1:000000000000:function:\(invocation.functionName)"),
        ]
        let request: JSONValue = ["event": invocation.event, "context": context]
        // JSON text has no raw newlines (they are escaped in strings), so it is one line.
        return request.jsonText
    }

    /// Reads an answer line; `nil` when it is not one.
    static func answer(_ line: String) -> Answer? {
        guard let value = try? JSONValue(parsing: line), case .object(let object) = value, object.count == 1 else { return nil }
        if let result = object["result"] {
            return .result(result)
        }
        if case .object(let error)? = object["error"] {
            let type = error["errorType"]?.stringValue ?? "Error"
            let message = error["errorMessage"]?.stringValue ?? ""
            return .error(FunctionFailure(errorType: type, errorMessage: message))
        }
        return nil
    }

    /// The failure for a stdout line that is not an answer: almost always a `print` or
    /// `console.log` the runtime did not redirect, so the message says where logs belong.
    static func invalidResponse(_ line: String, functionName: String) -> FunctionFailure {
        let limit = 200
        let quoted = line.count > limit ? "\(line.prefix(limit))…" : line
        return FunctionFailure(
            errorType: "Runtime.InvalidResponse",
            errorMessage: "Function \(functionName) wrote a line to stdout that is not an answer: \(quoted). A local function must write its logs to stderr and answer each request with one line on stdout: {\"result\": ...} or {\"error\": {\"errorType\": ..., \"errorMessage\": ...}}."
        )
    }

    /// Lambda's own wording for a runtime that died mid-invocation, plus the last thing it
    /// logged, which is usually why (a Python traceback ends with the exception).
    static func exitError(_ exit: ProcessExit, lastLog: String?, requestID: String) -> FunctionFailure {
        var message = "RequestId: \(requestID) Error: Runtime exited with error: \(exit)"
        if let lastLog, !lastLog.isEmpty {
            message += "\n\(lastLog)"
        }
        return FunctionFailure(errorType: "Runtime.ExitError", errorMessage: message)
    }
}
