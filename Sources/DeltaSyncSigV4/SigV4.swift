import Crypto
import Foundation

/// AWS Signature Version 4 (`AWS4-HMAC-SHA256`) for AppSync requests: the canonical request,
/// the string to sign and the signature, with swift-crypto's HMAC and SHA-256. The server
/// verifies with it (`SigV4Authenticator`) and the client signs with it, so both build the
/// canonical form one way.
///
/// ```swift
/// var request = SigV4Request(method: "POST", path: "/graphql", headers: ["host": "127.0.0.1:20002"], body: Array(body.utf8))
/// let headers = SigV4.sign(request, accessKeyID: "AKID", secretAccessKey: "secret", region: "us-east-1", now: Date())
/// // headers["Authorization"], headers["X-Amz-Date"]
/// ```
public enum SigV4 {
    /// AppSync's service name in the credential scope.
    public static let service = "appsync"

    /// The headers that sign `request`: `Authorization`, `X-Amz-Date` and, for temporary
    /// credentials, `X-Amz-Security-Token`. Every header of `request` is signed, plus `x-amz-date`.
    public static func sign(
        _ request: SigV4Request, accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil,
        region: String, service: String = service, now: Date
    ) -> [String: String] {
        let amzDate = timestamp(now)
        let date = String(amzDate.prefix(8))
        var signed = request
        signed.headers["x-amz-date"] = amzDate
        if let sessionToken { signed.headers["x-amz-security-token"] = sessionToken }
        let names = signed.headers.keys.sorted()
        let signature = self.signature(
            signed, signedHeaders: names, secretAccessKey: secretAccessKey, amzDate: amzDate, region: region, service: service)
        var headers = [
            "Authorization": "AWS4-HMAC-SHA256 Credential=\(accessKeyID)/\(date)/\(region)/\(service)/aws4_request, "
                + "SignedHeaders=\(names.joined(separator: ";")), Signature=\(signature)",
            "X-Amz-Date": amzDate,
        ]
        if let sessionToken { headers["X-Amz-Security-Token"] = sessionToken }
        return headers
    }

    /// The hex signature of `request` over `signedHeaders` (lowercased), signed at `amzDate`
    /// (`yyyyMMdd'T'HHmmss'Z'`).
    public static func signature(
        _ request: SigV4Request, signedHeaders: [String], secretAccessKey: String, amzDate: String, region: String, service: String
    ) -> String {
        let date = String(amzDate.prefix(8))
        let scope = "\(date)/\(region)/\(service)/aws4_request"
        let canonical = canonicalRequest(request, signedHeaders: signedHeaders)
        let stringToSign = "AWS4-HMAC-SHA256\n\(amzDate)\n\(scope)\n\(hex(SHA256.hash(data: Data(canonical.utf8))))"
        var key = SymmetricKey(data: Data("AWS4\(secretAccessKey)".utf8))
        for part in [date, region, service, "aws4_request"] {
            key = SymmetricKey(data: Data(HMAC<SHA256>.authenticationCode(for: Data(part.utf8), using: key)))
        }
        return hex(HMAC<SHA256>.authenticationCode(for: Data(stringToSign.utf8), using: key))
    }

    /// AWS's canonical request for `request` and the headers signed.
    ///
    /// The payload hash is always that of `request.body`, never an `x-amz-content-sha256`
    /// header's value: a verifier that trusted the header would accept any body under a
    /// signature made for another one. (A verifier checks such a header separately.)
    public static func canonicalRequest(_ request: SigV4Request, signedHeaders: [String]) -> String {
        let headers = signedHeaders.map { name in
            let value = (request.headers[name] ?? "").split(whereSeparator: \.isWhitespace).joined(separator: " ")
            return "\(name):\(value)\n"
        }.joined()
        return [
            request.method.uppercased(), canonicalPath(request.path), canonicalQuery(request.query), headers,
            signedHeaders.joined(separator: ";"), payloadHash(request.body),
        ].joined(separator: "\n")
    }

    /// The hex SHA-256 of a body, as the canonical request and `x-amz-content-sha256` write it.
    public static func payloadHash(_ body: [UInt8]) -> String {
        hex(SHA256.hash(data: Data(body)))
    }

    /// `yyyyMMdd'T'HHmmss'Z'` in UTC.
    public static func timestamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter.string(from: date)
    }

    /// The instant of an `x-amz-date` value.
    public static func date(_ amzDate: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter.date(from: amzDate)
    }

    /// Each path segment URI-encoded (RFC 3986 unreserved characters kept).
    static func canonicalPath(_ path: String) -> String {
        let given = path.isEmpty ? "/" : path
        return given.split(separator: "/", omittingEmptySubsequences: false)
            .map { encode(String($0).removingPercentEncoding ?? String($0)) }.joined(separator: "/")
    }

    /// Parameters sorted by name then value, each side encoded.
    static func canonicalQuery(_ query: String) -> String {
        guard !query.isEmpty else { return "" }
        return query.split(separator: "&").map { pair -> (String, String) in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0]).removingPercentEncoding ?? String(parts[0])
            let value = parts.count > 1 ? (String(parts[1]).removingPercentEncoding ?? String(parts[1])) : ""
            return (encode(name), encode(value))
        }.sorted { $0 < $1 }.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
    }

    private static let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)

    static func encode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            if unreserved.contains(byte) {
                out.append(Character(UnicodeScalar(byte)))
            } else {
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }

    static func hex<D: Sequence>(_ digest: D) -> String where D.Element == UInt8 {
        digest.map { String(format: "%02x", $0) }.joined()
    }
}

/// The parts of a request SigV4 signs.
public struct SigV4Request: Sendable, Equatable {
    public var method: String
    public var path: String
    public var query: String
    /// Header names lowercased.
    public var headers: [String: String]
    public var body: [UInt8]

    public init(method: String = "POST", path: String, query: String = "", headers: [String: String], body: [UInt8]) {
        self.method = method
        self.path = path
        self.query = query
        var lowercased: [String: String] = [:]
        for (name, value) in headers { lowercased[name.lowercased()] = value }
        self.headers = lowercased
        self.body = body
    }
}
