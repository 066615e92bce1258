import DeltaSyncCore
import Foundation

/// GraphQL over HTTP with the endpoint's credentials, as AppSync takes them, through an
/// ``HTTPExchange`` (the system's networking on Apple platforms, NIO on Linux). A 401 to a
/// token is retried once with a refreshed token.
package struct GraphQLClient: GraphQLTransport {
    let endpoint: SyncEndpoint
    let http: any HTTPExchange

    package init(endpoint: SyncEndpoint, http: any HTTPExchange) {
        self.endpoint = endpoint
        self.http = http
    }

    package func execute(_ document: String, variables: Item, authorization: SyncAuthorization?) async throws(DataStoreError)
        -> GraphQLResponse
    {
        let text = try await executeText(document, variables: variables, authorization: authorization)
        guard let parsed = try? JSONValue(parsing: text), case .object(let object) = parsed else { throw notGraphQL(text) }
        return GraphQLResponse(data: object["data"] ?? .null, errors: object["errors"]?.arrayValue ?? [])
    }

    package func executeText(_ document: String, variables: Item, authorization: SyncAuthorization?) async throws(DataStoreError)
        -> String
    {
        let authorization = authorization ?? endpoint.authorization
        do {
            return try await exchange(document, variables: variables, authorization: authorization, refresh: false)
        } catch {
            guard case .rejected(_, "UnauthorizedException", _) = error, authorization.mode != .apiKey else { throw error }
            return try await exchange(document, variables: variables, authorization: authorization, refresh: true)
        }
    }

    /// The error for an answer that is not GraphQL JSON.
    private func notGraphQL(_ text: String) -> DataStoreError {
        .network("\(endpoint.url) did not answer with GraphQL JSON: \(text.prefix(300))")
    }

    /// Sends the request and returns the body of a 200 answer.
    private func exchange(
        _ document: String, variables: Item, authorization: SyncAuthorization, refresh: Bool
    ) async throws(DataStoreError) -> String {
        let body = Array((["query": .string(document), "variables": .object(variables)] as JSONValue).jsonText.utf8)
        let signed = SyncAuthorization.Signed(host: endpoint.hostHeader, path: endpoint.url.path.isEmpty ? "/" : endpoint.url.path, body: body)
        var headers = try await authorization.headers(for: signed, refresh: refresh)
        headers["host"] = nil  // the HTTP stack sends the same Host itself
        if !headers.keys.contains(where: { $0.lowercased() == "content-type" }) { headers["content-type"] = "application/json" }
        let answer: HTTPAnswer
        do {
            answer = try await http.post(endpoint.url, headers: headers, body: body, timeout: .seconds(60))
        } catch {
            throw .network("cannot reach \(endpoint.url): \(error)")
        }
        if answer.status == 401 {
            let error = (try? JSONValue(parsing: answer.body))?["errors"][0] ?? .null
            throw .rejected(
                model: "authorization", errorType: error["errorType"].stringValue ?? "UnauthorizedException",
                message: error["message"].stringValue ?? "\(endpoint.url) answered 401")
        }
        guard answer.status == 200 else {
            throw .network("\(endpoint.url) answered \(answer.status): \(answer.body.prefix(300))")
        }
        return answer.body
    }
}
