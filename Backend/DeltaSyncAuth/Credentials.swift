import Foundation

/// What a request carries to authenticate with: its headers (HTTP, the WebSocket handshake's
/// `header` object, or a `start`'s `extensions.authorization`) and, for SigV4, the request
/// that was signed.
public struct Credentials: Sendable {
    /// Header names lowercased; a repeated name keeps its first value (see ``repeatedHeaders``).
    public var headers: [String: String]
    /// Header names (lowercased) the request sent more than once. A repeated credential header
    /// makes the request ambiguous, and ``RequestAuthentication`` refuses it.
    public var repeatedHeaders: Set<String>
    public var method: String
    /// The path that was signed (`/graphql`, or `/graphql/connect` for realtime).
    public var path: String
    public var query: String
    /// The body received: SigV4 hashes it, a Lambda authorizer is shown it.
    public var body: [UInt8]

    /// - Parameter headers: read by ``RequestHeaders`` (names differing only by case repeat).
    public init(headers: [String: String], method: String = "POST", path: String = "/graphql", query: String = "", body: [UInt8] = []) {
        self.init(headers: RequestHeaders(headers), method: method, path: path, query: query, body: body)
    }

    public init(headers: RequestHeaders, method: String = "POST", path: String = "/graphql", query: String = "", body: [UInt8] = []) {
        self.headers = headers.values
        self.repeatedHeaders = headers.repeatedNames
        self.method = method
        self.path = path
        self.query = query
        self.body = body
    }

    public subscript(_ name: String) -> String? { headers[name.lowercased()] }

    /// `x-api-key`.
    public var apiKey: String? { self["x-api-key"] }

    /// `Authorization`, with a `Bearer ` prefix removed (AppSync's docs disagree on it; clients send both).
    public var authorization: String? {
        guard var value = self["authorization"]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        // Only the first seven characters are compared: tokens are long.
        if value.utf8.count > 7, value.prefix(7).lowercased() == "bearer " { value = String(value.dropFirst(7)).trimmingCharacters(in: .whitespaces) }
        return value
    }
}
