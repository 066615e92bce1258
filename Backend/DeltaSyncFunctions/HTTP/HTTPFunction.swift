import AsyncHTTPClient
import DeltaSyncCore
import Foundation
import NIOCore

/// Calls a function that runs behind an HTTP endpoint: POSTs AppSync's event as JSON and takes
/// the JSON answer as the result.
///
/// ```swift
/// let echo = HTTPFunction(url: "http://127.0.0.1:9000/echo")
/// let result = try await echo.invoke(LambdaInvocation(functionName: "echo", event: ["arguments": [:]]))
/// ```
///
/// This is what lets a function written in any language, or already running in a debugger, or
/// in the Lambda Runtime Interface Emulator
/// (`http://localhost:9000/2015-03-31/functions/function/invocations`), answer a `@function`
/// field without DeltaSync knowing how to start it.
///
/// The endpoint answers:
/// - **2xx**: the body is the result (an empty body is `null`).
/// - **`X-Amz-Function-Error` header or a non-2xx status**: the function failed. A JSON body with
///   `errorMessage` (and optionally `errorType`), as Lambda's Invoke API and the emulator send,
///   gives that error; any other body gives `Runtime.HTTPError` quoting it.
///
/// The request carries `x-amz-request-id` and `lambda-runtime-aws-request-id` with the
/// invocation's request ID, so the endpoint's logs can be matched with DeltaSync's.
public struct HTTPFunction: LambdaFunction {
    /// Where the event is POSTed.
    public let url: String
    private let client: HTTPClient

    /// The largest response read: Lambda's own limit for a synchronous response (6 MB).
    static let maximumResponseBytes = 6 * 1024 * 1024
    /// How much of a body an error message quotes.
    static let quotedBodyCharacters = 200

    /// A function at `url` (`http://` or `https://`), called through `client` (by default one
    /// client shared by all HTTP functions, see ``sharedClient``).
    ///
    /// ```swift
    /// let resize = HTTPFunction(url: "http://localhost:9000/2015-03-31/functions/function/invocations")
    /// ```
    public init(url: String, client: HTTPClient? = nil) {
        self.url = url
        self.client = client ?? Self.sharedClient
    }

    /// The client of HTTP functions: `HTTPClient.shared`'s configuration, except that a refused
    /// connection fails at once.
    ///
    /// `HTTPClient.shared` retries a refused connection until the call's deadline, so a function
    /// whose server is not started would answer "timed out" after 30 seconds; locally, nothing
    /// listening is a mistake to report now, not a network glitch to ride out. Never shut down,
    /// like `HTTPClient.shared`.
    public static let sharedClient: HTTPClient = {
        var configuration = HTTPClient.Configuration.singletonConfiguration
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    public func invoke(_ invocation: LambdaInvocation) async throws(FunctionFailure) -> JSONValue {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "content-type", value: "application/json")
        request.headers.add(name: "x-amz-request-id", value: invocation.requestID)
        request.headers.add(name: "lambda-runtime-aws-request-id", value: invocation.requestID)
        request.body = .bytes(ByteBuffer(string: invocation.event.jsonText))

        // One deadline for the whole exchange, body included: a function that sends its headers
        // and then hangs has still run past its timeout.
        let deadline = NIODeadline.now() + TimeAmount(invocation.timeout)
        let started = ContinuousClock.now
        let status: UInt
        let functionError: Bool
        let body: String
        do {
            let response = try await client.execute(request, deadline: deadline)
            status = response.status.code
            functionError = response.headers.contains(name: "x-amz-function-error")
            var buffer = try await response.body.collect(upTo: Self.maximumResponseBytes)
            body = buffer.readString(length: buffer.readableBytes) ?? ""
        } catch {
            throw failure(for: error, invocation: invocation)
        }
        // AsyncHTTPClient cancels at the deadline from a task, which a busy process can run too
        // late, after the whole answer is in: an answer that came after the timeout is still a
        // function that ran past it, as Lambda reports it.
        guard ContinuousClock.now - started <= invocation.timeout else {
            throw .timedOut(after: invocation.timeout)
        }

        if functionError || !(200..<300).contains(status) {
            throw failure(status: status, body: body)
        }
        if body.allSatisfy(\.isWhitespace) { return .null }
        do {
            return try JSONValue(parsing: body)
        } catch {
            throw FunctionFailure(
                errorType: "Runtime.InvalidResponse",
                errorMessage: "The function endpoint \(url) answered HTTP \(status) with a body that is not JSON: \(Self.quote(body)). Answer with a JSON value (for a string, \"\\\"text\\\"\")."
            )
        }
    }

    /// The function's own error when the body is Lambda's error shape, else the HTTP failure.
    private func failure(status: UInt, body: String) -> FunctionFailure {
        if let json = try? JSONValue(parsing: body), let message = json["errorMessage"].stringValue {
            return FunctionFailure(errorType: json["errorType"].stringValue ?? "Error", errorMessage: message)
        }
        let quoted = body.allSatisfy(\.isWhitespace) ? "(empty body)" : Self.quote(body)
        return FunctionFailure(
            errorType: "Runtime.HTTPError",
            errorMessage: "The function endpoint \(url) answered HTTP \(status): \(quoted)"
        )
    }

    /// What a transport error means to the person running the function.
    private func failure(for error: any Error, invocation: LambdaInvocation) -> FunctionFailure {
        if let error = error as? HTTPClientError {
            if [.deadlineExceeded, .readTimeout, .writeTimeout, .connectTimeout].contains(error) {
                return .timedOut(after: invocation.timeout)
            }
            if [.invalidURL, .emptyHost, .emptyScheme].contains(error) || "\(error)".contains("unsupportedScheme") {
                return FunctionFailure(
                    errorType: "Runtime.InvalidURL",
                    errorMessage: "The function URL \(url) is not a valid http:// or https:// URL: fix it where the function is configured."
                )
            }
        }
        if error is NIOTooManyBytesError {
            return FunctionFailure(
                errorType: "Runtime.ResponseTooLarge",
                errorMessage: "The function endpoint \(url) answered more than 6 MB, Lambda's limit for a response."
            )
        }
        if error is CancellationError {
            return FunctionFailure(errorType: "Runtime.Cancelled", errorMessage: "The call to \(url) was cancelled.")
        }
        return FunctionFailure(
            errorType: "Runtime.ConnectionError",
            errorMessage: "Nothing answers at \(url) (\(error)). Start the function's server, or fix its URL where the function is configured."
        )
    }

    /// The start of `body`, quoted, for error messages.
    static func quote(_ body: String) -> String {
        let trimmed = body.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.count <= quotedBodyCharacters { return "\"\(trimmed)\"" }
        return "\"\(trimmed.prefix(quotedBodyCharacters))…\""
    }
}
