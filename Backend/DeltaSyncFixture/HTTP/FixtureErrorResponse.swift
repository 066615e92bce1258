import DeltaSyncCore
import DeltaSyncGraphQL
import HTTPTypes
import Hummingbird

/// A fixture API request refused: a 4xx status, the `x-amzn-ErrorType` header and
/// `{"errors":[{"errorType","message"}]}`, the shape the server answers every request-level
/// failure in.
struct FixtureErrorResponse: HTTPResponseError {
    let status: HTTPResponse.Status
    let error: AppSyncError

    static func unauthorized(_ message: String) -> FixtureErrorResponse {
        FixtureErrorResponse(status: .unauthorized, error: AppSyncError(.unauthorized, message))
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers: HTTPFields = [.contentType: "application/json; charset=UTF-8"]
        headers[HTTPField.Name("x-amzn-ErrorType")!] = error.errorType.rawValue
        let body = ResponseJSON.bytes(.dictionary(["errors": .array([ErrorShape.plain(error)])]))
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}
