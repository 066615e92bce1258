import DeltaSyncAuth
import DeltaSyncCore
import DeltaSyncGraphQL
import Foundation
import HTTPTypes

/// The authorization headers a realtime client sends, from whichever of the three carriers it
/// uses: the `header` query parameter (gql, Amplify JS before 6.5), a `header-<base64url>`
/// subprotocol (Amplify JS 6.5+), or the upgrade request's own headers (Swift, Android).
///
/// Each carrier is read by ``RequestHeaders``, the reader HTTP requests use too: a credential
/// header given twice (two names differing by case in a JSON object, or a repeated upgrade
/// header) is a repeat that authentication refuses, on every path alike.
struct RealtimeAuthorization: Sendable, Equatable {
    let headers: RequestHeaders

    init(headers: RequestHeaders) {
        self.headers = headers
    }

    /// A JSON object's string members.
    init(headers: [String: String]) {
        self.init(headers: RequestHeaders(headers))
    }

    /// Reads the carriers in the order above; the first one present wins.
    ///
    /// - Throws: ``AppSyncError`` (`UnauthorizedException`) when a carrier is present but is not
    ///   base64 of a JSON object of strings.
    init(upgrade request: HTTPRequest) throws(AppSyncError) {
        if let encoded = Self.queryParameter("header", in: request.path ?? "") {
            self = try Self.decode(encoded, carrier: "the 'header' query parameter")
            return
        }
        if let encoded = Self.subprotocols(request.headerFields).first(where: { $0.hasPrefix("header-") }) {
            self = try Self.decode(String(encoded.dropFirst("header-".count)), carrier: "the 'header-' subprotocol")
            return
        }
        self.init(headers: RequestHeaders(request.headerFields.map { ($0.name.canonicalName, $0.value) }))
    }

    /// Reads `payload.extensions.authorization` of a `start` message.
    init(extensions authorization: JSONValue) throws(AppSyncError) {
        guard case .object(let object) = authorization else {
            throw AppSyncError(.unauthorized, "The start message carries no extensions.authorization object.")
        }
        self.init(headers: object.compactMapValues(\.stringValue))
    }

    /// The entries of `Sec-WebSocket-Protocol` (one header or several, comma-separated).
    static func subprotocols(_ headers: HTTPFields) -> [String] {
        headers[values: .secWebSocketProtocol].flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// A query parameter's value. `+` stays `+`: gql sends standard base64 unescaped.
    static func queryParameter(_ name: String, in path: String) -> String? {
        guard let query = path.split(separator: "?", maxSplits: 1).dropFirst().first else { return nil }
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.first.map(String.init) == name else { continue }
            let value = parts.count > 1 ? String(parts[1]) : ""
            return value.removingPercentEncoding ?? value
        }
        return nil
    }

    /// Standard or URL-safe base64, padded or not, of a JSON object.
    private static func decode(_ encoded: String, carrier: String) throws(AppSyncError) -> RealtimeAuthorization {
        guard let data = Base64URL.decode(encoded),
            case .object(let object)? = try? JSONValue(parsing: String(decoding: data, as: UTF8.self))
        else {
            throw AppSyncError(.unauthorized, "The authorization in \(carrier) is not base64 of a JSON object.")
        }
        return RealtimeAuthorization(headers: object.compactMapValues(\.stringValue))
    }
}
