import DeltaSyncCore
import DeltaSyncGraphQL
import DeltaSyncStorage
import Hummingbird

/// `GET /admin/conflicts[?model=Post][&limit=100]`: the most recent version conflicts and how
/// each was settled, newest first, so a developer can see why a device's edit did not stick.
/// Needs the API key like `/graphql`.
struct AdminRoutes: Sendable {
    let store: any ItemStore
    let authentication: HTTPAuthentication

    func add(to router: Router<BasicRequestContext>) {
        router.get("admin/conflicts") { request, _ in try await conflicts(request) }
    }

    private func conflicts(_ request: Request) async throws -> Response {
        try await authentication.requireAPIKey(request)
        let params = request.uri.queryParameters
        let model = params["model"].map(String.init)
        let limitText = params["limit"].map(String.init) ?? "100"
        guard let limit = Int(limitText), (1...10_000).contains(limit) else {
            throw HTTPErrorResponse(
                status: .badRequest,
                error: AppSyncError(.invalidArgument, "limit must be a whole number from 1 to 10000, got '\(limitText)'."))
        }
        let records = try await store.read { tx in try tx.conflicts(model: model, limit: limit) }
        let body: JSONValue = ["conflicts": .array(records.map(\.json))]
        return Response(
            status: .ok, headers: [.contentType: "application/json; charset=UTF-8"],
            body: .init(byteBuffer: ByteBuffer(string: body.jsonText)))
    }
}

extension ConflictRecord {
    var json: JSONValue {
        [
            "model": .string(model), "key": .object(key), "mutation": .string(mutation),
            "incomingVersion": .int(incomingVersion), "storedVersion": .int(storedVersion),
            "handler": .string(handler), "outcome": .string(outcome),
            "resultVersion": resultVersion.map(JSONValue.int) ?? .null, "at": .int(at),
        ]
    }
}
