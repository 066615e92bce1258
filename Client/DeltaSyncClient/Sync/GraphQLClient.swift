import AsyncHTTPClient
import DeltaSyncCore
import Foundation
import NIOCore

/// GraphQL over HTTP with an API key, as AppSync takes it.
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

    func execute(_ document: String, variables: Item) async throws(DataStoreError) -> GraphQLResponse {
        var request = HTTPClientRequest(url: endpoint.url.absoluteString)
        request.method = .POST
        request.headers.add(name: "content-type", value: "application/json")
        request.headers.add(name: "x-api-key", value: endpoint.apiKey)
        let body: JSONValue = ["query": .string(document), "variables": .object(variables)]
        request.body = .bytes(ByteBuffer(string: body.jsonText))
        let text: String
        do {
            let response = try await Self.http.execute(request, timeout: .seconds(60))
            text = String(buffer: try await response.body.collect(upTo: 64 << 20))
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
