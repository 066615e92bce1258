import AsyncHTTPClient
import DeltaSyncCore
import Foundation
import NIOCore

/// Ready-made ``LambdaConflictHandler``s.
public enum LambdaConflictHandlers {
    /// Posts AppSync's Lambda payload as JSON to `url` and reads the answer from the response
    /// body, so an existing Lambda function's code can run behind a small local HTTP wrapper.
    ///
    /// ```swift
    /// configuration.lambdaConflictHandler = LambdaConflictHandlers.http(url: "http://127.0.0.1:9000/")
    /// ```
    public static func http(url: String, timeout: Duration = .seconds(10)) -> LambdaConflictHandler {
        { request in
            var post = HTTPClientRequest(url: url)
            post.method = .POST
            post.headers.add(name: "content-type", value: "application/json")
            post.body = .bytes(ByteBuffer(string: request.json.jsonText))
            let response: HTTPClientResponse
            do {
                response = try await HTTPClient.shared.execute(post, timeout: .seconds(Int64(timeout.components.seconds)))
            } catch {
                throw AppSyncError(.conflictError, "The conflict handler at \(url) could not be reached: \(error).")
            }
            let body = try await response.body.collect(upTo: 6 * 1024 * 1024)
            guard (200..<300).contains(response.status.code) else {
                throw AppSyncError(.conflictError, "The conflict handler at \(url) answered HTTP \(response.status.code).")
            }
            guard let json = try? JSONValue(parsing: String(buffer: body)) else {
                throw AppSyncError(.conflictError, "The conflict handler at \(url) did not answer JSON.")
            }
            return try LambdaConflictResponse(json: json)
        }
    }
}
