import AsyncHTTPClient
import DeltaSyncCore
import DeltaSyncSchema
import Foundation
import NIOCore

/// An `@http` field run as AppSync's HTTP data source: the path's `:params` filled from
/// `params`, `query` as the query string (not for DELETE), `body` as JSON (POST, PUT, PATCH),
/// the client's headers copied with the directive's own on top; a 200 (or 201 for a body
/// method) answer's body is the value, any other status nulls the field with the body as the
/// message and the status code as `errorType`.
struct HTTPResolver: Sendable {
    let call: HTTPCall
    /// `${env}` and `${aws_region}` in the URL.
    let environmentName: String
    let region: String
    let timeout: Duration

    /// Headers never copied from the client: they describe the client's own connection.
    private static let connectionHeaders: Set<String> = [
        "host", "content-length", "connection", "transfer-encoding", "keep-alive", "upgrade", "te", "trailer",
        "accept-encoding", "content-type",
    ]

    func resolve(arguments: JSONValue, headers clientHeaders: [String: String]) async throws(AppSyncError) -> JSONValue {
        let url = try self.url(arguments: arguments)
        var request = HTTPClientRequest(url: url)
        request.method = .RAW(value: call.method.rawValue)
        for (name, value) in clientHeaders.sorted(by: { $0.key < $1.key }) where !Self.connectionHeaders.contains(name) {
            request.headers.add(name: name, value: value)
        }
        // AppSync's template sets this value, odd as it is for Accept-Encoding.
        request.headers.replaceOrAdd(name: "accept-encoding", value: "application/json")
        if call.method.hasBody {
            request.headers.replaceOrAdd(name: "content-type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: arguments["body"].isNull ? "{}" : arguments["body"].jsonText))
        }
        for header in call.headers { request.headers.replaceOrAdd(name: header.key, value: header.value) }
        let response: HTTPClientResponse
        let body: ByteBuffer
        do {
            response = try await HTTPClient.shared.execute(request, timeout: .milliseconds(Int64(timeout.milliseconds)))
            body = try await response.body.collect(upTo: 6 * 1024 * 1024)
        } catch {
            throw AppSyncError("HTTP:RequestFailed", "The @http request to \(url) failed: \(error). Check that the service is running.")
        }
        let text = String(buffer: body)
        let success: Set<UInt> = call.method.hasBody ? [200, 201] : [200]
        guard success.contains(response.status.code) else {
            throw AppSyncError(AppSyncErrorType(rawValue: String(response.status.code)), text)
        }
        // AppSync hands the body on as text, which the field's type then reads: JSON objects
        // and lists for object fields, the text itself for a String field.
        return (try? JSONValue(parsing: text)) ?? .string(text)
    }

    /// The URL with `${env}`, `${aws_region}` and the path parameters filled in and the query
    /// appended.
    func url(arguments: JSONValue) throws(AppSyncError) -> String {
        var url = call.url.replacingOccurrences(of: "${env}", with: environmentName)
            .replacingOccurrences(of: "${aws_region}", with: region)
        for name in call.pathParameters {
            guard let value = arguments["params"][name].stringValue else {
                throw AppSyncError(.validation, "The path parameter '\(name)' of \(call.url) has no value.")
            }
            let encoded = value.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? value
            url = url.replacingOccurrences(of: ":\(name)", with: encoded)
        }
        guard call.method != .DELETE, case .object(let query) = arguments["query"] else { return url }
        var items: [String] = []
        for key in query.keys.sorted() {
            let values: [JSONValue] = if case .array(let list) = query[key]! { list } else { [query[key]!] }
            for value in values where !value.isNull {
                let text = value.stringValue ?? value.jsonText
                items.append("\(Self.encode(key))=\(Self.encode(text))")
            }
        }
        guard !items.isEmpty else { return url }
        return url + (url.contains("?") ? "&" : "?") + items.joined(separator: "&")
    }

    /// A query string's name or value, percent-encoded: what `@http` fields and the HTTP data
    /// source both send.
    static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(["-", "_", ".", "~"])) ?? text
    }
}
