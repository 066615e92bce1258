import AsyncHTTPClient
import DeltaSyncCore
import Foundation
import NIOCore

/// AppSync's HTTP data source: a request `{"method", "resourcePath", "params": {"headers",
/// "query", "body"}}` is sent to a path under the endpoint, and the answer reaches the response
/// template as `{"statusCode", "headers", "body"}` whatever its status; the template decides
/// what a 404 means. Only a request that gets no answer fails (`$ctx.error`).
struct HTTPDataSource: DataSource {
    let name: String
    /// `https://api.example.com`, without a trailing slash.
    let endpoint: String
    var timeout: Duration = .seconds(30)

    /// - Throws: ``AppSyncError`` (`BadRequest`) for an endpoint that is not an http(s) URL.
    init(name: String, endpoint: String) throws(AppSyncError) {
        guard let url = URL(string: endpoint), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
            throw AppSyncError(.badRequest, "The HTTP data source \(name) needs an http:// or https:// endpoint, not '\(endpoint)'.")
        }
        self.name = name
        self.endpoint = endpoint.hasSuffix("/") ? String(endpoint.dropLast()) : endpoint
    }

    func invoke(_ request: JSONValue, context: ResolverContext) async throws(DataSourceFailure) -> JSONValue {
        guard let method = request["method"].stringValue?.uppercased(), let path = request["resourcePath"].stringValue, path.hasPrefix("/") else {
            throw DataSourceFailure(type: "HTTP:InvalidRequest", message: "An HTTP request needs a method and a resourcePath starting with '/'.")
        }
        var url = endpoint + path
        if case .object(let query) = request["params"]["query"], !query.isEmpty {
            let pairs = query.keys.sorted().map { key in "\(HTTPResolver.encode(key))=\(HTTPResolver.encode(query[key]!.stringValue ?? query[key]!.jsonText))" }
            url += (url.contains("?") ? "&" : "?") + pairs.joined(separator: "&")
        }
        var outgoing = HTTPClientRequest(url: url)
        outgoing.method = .RAW(value: method)
        for (header, value) in request["params"]["headers"].objectValue ?? [:] {
            outgoing.headers.replaceOrAdd(name: header, value: value.stringValue ?? value.jsonText)
        }
        switch request["params"]["body"] {
        case .null: break
        case .string(let text): outgoing.body = .bytes(ByteBuffer(string: text))
        case let other: outgoing.body = .bytes(ByteBuffer(string: other.jsonText))
        }
        do {
            let response = try await HTTPClient.shared.execute(outgoing, timeout: .milliseconds(Int64(timeout.milliseconds)))
            let body = try await response.body.collect(upTo: 6 * 1024 * 1024)
            var headers: Item = [:]
            for header in response.headers { headers[header.name.lowercased()] = .string(header.value) }
            return ["statusCode": .int(Int(response.status.code)), "headers": .object(headers), "body": .string(String(buffer: body))]
        } catch {
            throw DataSourceFailure(type: "HTTP:RequestFailed", message: "The request to \(url) failed: \(error). Check that the service is running.")
        }
    }
}
