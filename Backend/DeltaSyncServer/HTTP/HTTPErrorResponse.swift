import DeltaSyncCore
import DeltaSyncGraphQL
import Foundation
import HTTPTypes
import Hummingbird

/// Request-level failures (no GraphQL executed): a 4xx status, the `x-amzn-ErrorType` header
/// that Amplify JS reads to name the error, and `{"errors":[{"errorType","message"}]}`.
struct HTTPErrorResponse: HTTPResponseError {
    let status: HTTPResponse.Status
    let error: AppSyncError

    static let errorTypeHeader = HTTPField.Name("x-amzn-ErrorType")!

    static func unauthorized(_ message: String) -> HTTPErrorResponse {
        HTTPErrorResponse(status: .unauthorized, error: AppSyncError(.unauthorized, message))
    }

    static func malformed(_ message: String) -> HTTPErrorResponse {
        HTTPErrorResponse(status: .badRequest, error: AppSyncError(.malformedHttpRequest, message))
    }

    /// `{"errors":[{"errorType","message"}]}` for `error`: the body of every request-level
    /// failure, from a route or from the connection gate.
    static func body(_ error: AppSyncError) -> String {
        String(decoding: ResponseJSON.bytes(.dictionary(["errors": .array([ErrorShape.plain(error)])])), as: UTF8.self)
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers: HTTPFields = [.contentType: "application/json; charset=UTF-8"]
        headers[Self.errorTypeHeader] = error.errorType.rawValue
        return Response(
            status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: Self.body(error))))
    }
}
