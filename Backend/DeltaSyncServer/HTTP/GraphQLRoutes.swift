import DeltaSyncAuth
import DeltaSyncCore
import DeltaSyncFixture
import DeltaSyncGraphQL
import Foundation
import HTTPTypes
import Hummingbird

/// `POST /graphql` (and `GET /graphql?query=...`), answered as AppSync answers.
struct GraphQLRoutes: Sendable {
    let executor: RequestExecutor
    let authentication: HTTPAuthentication
    let maxBodyBytes: Int
    /// Delays to inject and the request log to write; `nil` without the fixture API.
    let fixture: Fixture?
    /// Requests counted and timed; `nil` with metrics off.
    let metrics: ServerMetrics?
    /// The fixture API's key, which `x-deltasync-explain` needs; `nil` without the fixture API
    /// (then no request gets plans).
    let adminKey: String?

    func add(to router: Router<ServerRequestContext>) {
        router.post("graphql") { request, _ in try await post(request) }
        router.get("graphql") { request, _ in try await get(request) }
    }

    private func post(_ request: Request) async throws -> Response {
        let started = ContinuousClock.now
        let buffer = try await request.body.collect(upTo: maxBodyBytes)
        let (identity, caller) = try await authentication.identify(request, body: Array(buffer: buffer))
        guard buffer.readableBytes > 0 else { throw HTTPErrorResponse.malformed("Request body is empty.") }
        guard let body = try? JSONValue(parsing: String(buffer: buffer)) else {
            throw HTTPErrorResponse.malformed("Unable to parse GraphQL query.")
        }
        return try await respond(to: body, request: request, identity: identity, caller: caller, started: started)
    }

    static let explainHeader = HTTPField.Name("x-deltasync-explain")!

    /// `$ctx.request.headers` (names lower-cased, repeated ones joined as HTTP joins them) and
    /// the caller's address as a proxy in front reports it.
    static func context(of request: Request) -> (headers: [String: String], sourceIP: String?) {
        var headers: [String: String] = [:]
        for field in request.headers {
            let name = field.name.canonicalName
            headers[name] = headers[name].map { "\($0), \(field.value)" } ?? field.value
        }
        if let authority = request.head.authority { headers["host"] = authority }
        let forwarded = headers["x-forwarded-for"]?.split(separator: ",").first.map { $0.trimmingCharacters(in: .whitespaces) }
        return (headers, forwarded)
    }

    /// Whether the request asks for query plans (`x-deltasync-explain: 1`). Plans describe the
    /// store's tables and indexes, and on PostgreSQL run every sync query again under
    /// `EXPLAIN ANALYZE`: only a caller with the admin key gets them. Asked without it, the
    /// request is refused rather than answered without plans the caller would wait for.
    private func wantsExplain(_ headers: HTTPFields) throws -> Bool {
        guard let value = headers[Self.explainHeader], value == "1" || value.lowercased() == "true" else { return false }
        guard let adminKey else {
            throw HTTPErrorResponse(status: .forbidden, error: AppSyncError(
                "ForbiddenException", "x-deltasync-explain needs the fixture API, which this server runs without (--no-admin)."))
        }
        guard AdminKey.matches(headers[AdminKey.header], adminKey) else {
            throw HTTPErrorResponse.unauthorized("x-deltasync-explain needs the admin key in the x-deltasync-admin-key header.")
        }
        return true
    }

    private func get(_ request: Request) async throws -> Response {
        let started = ContinuousClock.now
        let (identity, caller) = try await authentication.identify(request)
        let params = request.uri.queryParameters
        var body: [String: JSONValue] = [:]
        if let query = params["query"] { body["query"] = .string(String(query)) }
        if let variables = params["variables"] { body["variables"] = .string(String(variables)) }
        if let name = params["operationName"] { body["operationName"] = .string(String(name)) }
        return try await respond(to: .object(body), request: request, identity: identity, caller: caller, started: started)
    }

    private func respond(
        to body: JSONValue, request: Request, identity: Identity, caller: Caller, started: ContinuousClock.Instant
    ) async throws -> Response {
        var graphQLRequest: OperationRequest
        do {
            graphQLRequest = try OperationRequest(body: body)
        } catch {
            throw HTTPErrorResponse(status: .badRequest, error: error)
        }
        if executor.schema.readsRequestHeaders {
            (graphQLRequest.headers, graphQLRequest.sourceIP) = Self.context(of: request)
        }
        let explain = try wantsExplain(request.headers)
        if let delay = fixture?.faults.takeDelay() { try await Task.sleep(for: delay) }
        let answer = await executor.answer(graphQLRequest, as: caller, explain: explain, traceSteps: fixture != nil)
        if fixture != nil || metrics != nil {
            record(answer, identity: identity, started: started)
        }
        var headers: HTTPFields = [.contentType: "application/json; charset=UTF-8"]
        if answer.storeUnavailable {
            // A 5xx, which DataStore clients back off and retry (see docs/compatibility.md).
            headers[.retryAfter] = "1"
            headers[HTTPErrorResponse.errorTypeHeader] = AppSyncErrorType.serviceUnavailable.rawValue
        }
        return Response(
            status: answer.storeUnavailable ? .serviceUnavailable : .ok, headers: headers,
            body: .init(byteBuffer: ByteBuffer(bytes: answer.bytes)))
    }

    // MARK: - Request log

    /// Writes the request log entry and the metrics of one answered request.
    private func record(_ answer: RequestExecutor.Answer, identity: Identity, started: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - started
        let operation = answer.operation ?? OperationSummary(description: "(invalid document)", rootFields: "invalid")
        metrics?.request(operation: operation.rootFields, outcome: answer.errorTypes.isEmpty ? "ok" : "error", duration: elapsed)
        guard let log = fixture?.requests else { return }
        let (mode, who) = RequestLog.describe(identity)
        log.append(RequestLog.Entry(
            at: Int((Date().timeIntervalSince1970 * 1000).rounded()), operation: operation.description, authMode: mode, identity: who,
            outcome: answer.errorTypes.isEmpty ? "ok" : answer.errorTypes.joined(separator: ", "),
            durationMilliseconds: Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15,
            steps: answer.steps.map(\.json)))
    }
}
