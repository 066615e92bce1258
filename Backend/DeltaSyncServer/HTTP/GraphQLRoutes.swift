import DeltaSyncCore
import DeltaSyncGraphQL
import Foundation
import GraphQL
import HTTPTypes
import Hummingbird

/// `POST /graphql` (and `GET /graphql?query=...`), answered as AppSync answers.
struct GraphQLRoutes: Sendable {
    let executor: RequestExecutor
    let authentication: HTTPAuthentication
    let maxBodyBytes: Int

    func add(to router: Router<BasicRequestContext>) {
        router.post("graphql") { request, _ in try await post(request) }
        router.get("graphql") { request, _ in try await get(request) }
    }

    private func post(_ request: Request) async throws -> Response {
        let buffer = try await request.body.collect(upTo: maxBodyBytes)
        let caller = try await authentication.caller(request, body: Array(buffer: buffer))
        guard buffer.readableBytes > 0 else { throw HTTPErrorResponse.malformed("Request body is empty.") }
        guard let body = try? JSONValue(parsing: String(buffer: buffer)) else {
            throw HTTPErrorResponse.malformed("Unable to parse GraphQL query.")
        }
        return try await respond(to: body, explain: Self.wantsExplain(request.headers), caller: caller)
    }

    static let explainHeader = HTTPField.Name("x-deltasync-explain")!

    private static func wantsExplain(_ headers: HTTPFields) -> Bool {
        headers[explainHeader].map { $0 == "1" || $0.lowercased() == "true" } ?? false
    }

    private func get(_ request: Request) async throws -> Response {
        let caller = try await authentication.caller(request)
        let params = request.uri.queryParameters
        var body: [String: JSONValue] = [:]
        if let query = params["query"] { body["query"] = .string(String(query)) }
        if let variables = params["variables"] { body["variables"] = .string(String(variables)) }
        if let name = params["operationName"] { body["operationName"] = .string(String(name)) }
        return try await respond(to: .object(body), explain: Self.wantsExplain(request.headers), caller: caller)
    }

    private func respond(to body: JSONValue, explain: Bool, caller: Caller?) async throws -> Response {
        let graphQLRequest: OperationRequest
        do {
            graphQLRequest = try OperationRequest(body: body)
        } catch {
            throw HTTPErrorResponse(status: .badRequest, error: error)
        }
        let data = await executor.execute(graphQLRequest, explain: explain, caller: caller)
        return Response(
            status: .ok,
            headers: [.contentType: "application/json; charset=UTF-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: data))
        )
    }
}
