import AsyncHTTPClient
import DeltaSyncCore
import Foundation
import NIOCore

/// GraphQL over HTTP with the endpoint's credentials, as AppSync takes them. A 401 to a token
/// is retried once with a refreshed token.
struct GraphQLClient: GraphQLTransport {
    let endpoint: SyncEndpoint

    /// Fails at once when the backend refuses the connection: the sync engine decides when to
    /// try again, and a device that is offline should learn it now, not after the request
    /// timeout (the shared client retries connecting until then).
    private static let http: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout.connect = .seconds(10)
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    func execute(_ document: String, variables: Item, authorization: SyncAuthorization?) async throws(DataStoreError)
        -> GraphQLResponse
    {
        let authorization = authorization ?? endpoint.authorization
        do {
            return try await execute(document, variables: variables, authorization: authorization, refresh: false)
        } catch {
            guard case .rejected(_, "UnauthorizedException", _) = error, authorization.mode != .apiKey else { throw error }
            return try await execute(document, variables: variables, authorization: authorization, refresh: true)
        }
    }

    private func execute(
        _ document: String, variables: Item, authorization: SyncAuthorization, refresh: Bool
    ) async throws(DataStoreError) -> GraphQLResponse {
        var request = HTTPClientRequest(url: endpoint.url.absoluteString)
        request.method = .POST
        let body = Array((["query": .string(document), "variables": .object(variables)] as JSONValue).jsonText.utf8)
        let signed = SyncAuthorization.Signed(host: endpoint.hostHeader, path: endpoint.url.path.isEmpty ? "/" : endpoint.url.path, body: body)
        var headers = try await authorization.headers(for: signed, refresh: refresh)
        headers["host"] = nil  // the HTTP client sends the same Host itself
        if !headers.keys.contains(where: { $0.lowercased() == "content-type" }) { headers["content-type"] = "application/json" }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        request.body = .bytes(ByteBuffer(bytes: body))
        let text: String
        do {
            let response = try await Self.http.execute(request, timeout: .seconds(60))
            text = String(buffer: try await response.body.collect(upTo: 64 << 20))
            if response.status == .unauthorized {
                let error = (try? JSONValue(parsing: text))?["errors"][0] ?? .null
                throw DataStoreError.rejected(
                    model: "authorization", errorType: error["errorType"].stringValue ?? "UnauthorizedException",
                    message: error["message"].stringValue ?? "\(endpoint.url) answered 401")
            }
            guard response.status == .ok else {
                throw DataStoreError.network("\(endpoint.url) answered \(response.status.code): \(text.prefix(300))")
            }
        } catch let error as DataStoreError {
            throw error
        } catch {
            throw .network("cannot reach \(endpoint.url): \(error)")
        }
        guard let parsed = try? JSONValue(parsing: text), case .object(let object) = parsed else {
            throw .network("\(endpoint.url) did not answer with GraphQL JSON: \(text.prefix(300))")
        }
        return GraphQLResponse(data: object["data"] ?? .null, errors: object["errors"]?.arrayValue ?? [])
    }
}
