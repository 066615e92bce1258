import DeltaSyncCore
import Foundation

/// A Lambda function as a `@function` field calls it: given AppSync's event, answer with a
/// JSON result or fail.
///
/// Every way DeltaSync runs a function implements this one contract: an HTTP endpoint
/// (``HTTPFunction``), a local process (``LocalProcessFunction``, for an Amplify project's Node
/// or Python handler or any command) and a Swift closure (``ClosureFunction``):
///
/// ```swift
/// let echo = ClosureFunction { invocation in
///     ["said": invocation.event["arguments"]["msg"]]
/// }
/// let answer = try await echo.invoke(LambdaInvocation(functionName: "echo", event: ["arguments": ["msg": "hi"]]))
/// ```
public protocol LambdaFunction: Sendable {
    /// Runs the function once.
    ///
    /// - Throws: ``FunctionFailure`` when the function threw, timed out, could not be started
    ///   or answered something that is not JSON. AppSync turns it into the field's error.
    func invoke(_ invocation: LambdaInvocation) async throws(FunctionFailure) -> JSONValue
}

/// One call of a function: its event and the context a Lambda handler is given.
public struct LambdaInvocation: Sendable {
    /// The function's name as resolved (`${env}` replaced).
    public var functionName: String
    /// AppSync's event: `typeName`, `fieldName`, `arguments`, `identity`, `source`, `request`,
    /// `prev`.
    public var event: JSONValue
    /// Lambda's `awsRequestId`; unique per call.
    public var requestID: String
    /// How long the function may take; the implementation stops waiting after it.
    public var timeout: Duration

    public init(functionName: String, event: JSONValue, requestID: String = UUID().uuidString.lowercased(), timeout: Duration = .seconds(30)) {
        self.functionName = functionName
        self.event = event
        self.requestID = requestID
        self.timeout = timeout
    }
}

/// Why a function gave no result, in the terms AppSync reports it.
///
/// ```swift
/// throw FunctionFailure(errorType: "Error", errorMessage: "No such order")
/// ```
public struct FunctionFailure: Error, Sendable, Equatable {
    /// The error's class as the runtime names it (`Error`, `ValueError`); for failures outside
    /// the handler, what happened (`TimeoutError`, `FunctionNotFound`, `InvalidResponse`).
    public var errorType: String
    /// The thrown error's message, or what went wrong.
    public var errorMessage: String

    public init(errorType: String, errorMessage: String) {
        self.errorType = errorType
        self.errorMessage = errorMessage
    }

    /// The message Lambda reports when a function runs past its timeout.
    public static func timedOut(after timeout: Duration) -> FunctionFailure {
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        return FunctionFailure(errorType: "TimeoutError", errorMessage: "Task timed out after \(String(format: "%.2f", seconds)) seconds")
    }
}

/// A function written in Swift, for tests that embed the server.
///
/// ```swift
/// configuration.functions["double"] = ClosureFunction { invocation in
///     .int((invocation.event["arguments"]["n"].intValue ?? 0) * 2)
/// }
/// ```
///
/// A thrown ``FunctionFailure`` is reported as it is; any other error as `Error` with its
/// description.
public struct ClosureFunction: LambdaFunction {
    let body: @Sendable (LambdaInvocation) async throws -> JSONValue

    public init(_ body: @escaping @Sendable (LambdaInvocation) async throws -> JSONValue) {
        self.body = body
    }

    public func invoke(_ invocation: LambdaInvocation) async throws(FunctionFailure) -> JSONValue {
        do {
            return try await body(invocation)
        } catch let failure as FunctionFailure {
            throw failure
        } catch {
            throw FunctionFailure(errorType: "Error", errorMessage: String(describing: error))
        }
    }
}
