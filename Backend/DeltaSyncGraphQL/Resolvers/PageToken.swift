import Crypto
import DeltaSyncCore
import Foundation

/// Opaque, tamper-evident `nextToken`s.
///
/// A token carries where the next page starts and which query issued it, signed with
/// HMAC-SHA256 under a key only the server knows. A client can hand it back unchanged; a
/// token that was edited, truncated, or issued for another query is refused with an
/// `InvalidArgumentException` instead of silently returning the wrong page.
package struct PageTokenCodec: Sendable {
    private let key: SymmetricKey

    init(secret: [UInt8]) {
        key = SymmetricKey(data: secret)
    }

    /// A codec with a fresh random key: tokens do not outlive the process.
    package static func random() -> PageTokenCodec {
        PageTokenCodec(secret: (0..<32).map { _ in UInt8.random(in: .min ... .max) })
    }

    /// What a token says.
    struct Payload: Equatable, Sendable {
        /// The root or nested field the token belongs to (`listPosts`, `Blog.posts`).
        var query: String
        var cursor: [JSONValue]
        /// The sync's fixed `startedAt` (sync queries only).
        var startedAt: Int?
        /// `delta` when a sync pages through the delta log (with its `lastSync` in `since`).
        var source: String?
        var since: Int?

        init(query: String, cursor: [JSONValue], startedAt: Int? = nil, source: String? = nil, since: Int? = nil) {
            self.query = query
            self.cursor = cursor
            self.startedAt = startedAt
            self.source = source
            self.since = since
        }
    }

    func encode(_ payload: Payload) -> String {
        var fields: [String: JSONValue] = ["query": .string(payload.query), "cursor": .array(payload.cursor)]
        fields["startedAt"] = payload.startedAt.map(JSONValue.int)
        fields["source"] = payload.source.map(JSONValue.string)
        fields["since"] = payload.since.map(JSONValue.int)
        let body = Data(JSONWriter.bytes(.object(fields)))
        let mac = HMAC<SHA256>.authenticationCode(for: body, using: key)
        return Self.base64URL(body) + "." + Self.base64URL(Data(mac))
    }

    /// Decodes and verifies a token issued for `query`.
    func decode(_ token: String, for query: String) throws(AppSyncError) -> Payload {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let body = Self.data(base64URL: parts[0]), let mac = Self.data(base64URL: parts[1]),
            HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: body, using: key),
            let payload = Self.payload(String(decoding: body, as: UTF8.self))
        else {
            throw AppSyncError(
                .invalidArgument,
                "Invalid nextToken: it was not issued by this server, or it was altered. Pass back the nextToken of the previous page unchanged, or start again without one."
            )
        }
        guard payload.query == query else {
            throw AppSyncError(
                .invalidArgument,
                "Invalid nextToken: it was issued for '\(payload.query)', not '\(query)'."
            )
        }
        return payload
    }

    /// The payload of a token body this server wrote (its MAC checked).
    private static func payload(_ text: String) -> Payload? {
        guard case .object(let fields)? = try? JSONValue(parsing: text), let query = fields["query"]?.stringValue,
            let cursor = fields["cursor"]?.arrayValue
        else { return nil }
        return Payload(
            query: query, cursor: cursor, startedAt: fields["startedAt"]?.intValue, source: fields["source"]?.stringValue,
            since: fields["since"]?.intValue)
    }

    private static func base64URL(_ data: Data) -> String { Base64URL.encode(data) }

    private static func data(base64URL text: Substring) -> Data? { Base64URL.decode(text) }
}
