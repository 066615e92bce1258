import Crypto
import DeltaSyncCore
import DeltaSyncModelSchema
import Foundation

/// `AWS_IAM`: a request signed with Signature Version 4 (`AWS4-HMAC-SHA256`) by one of the
/// configured access keys, checked as AWS checks it: the canonical request rebuilt from the
/// method, path, query, signed headers and body; the signing key derived from the secret,
/// date, region and service; the time within 15 minutes. The key's role becomes the caller's.
///
/// The HMAC and SHA-256 are swift-crypto's; only the canonical form is assembled here.
public struct SigV4Authenticator: Authenticator {
    public let credentials: [String: IAMCredential]
    /// The account the identity's `userArn` names.
    public var accountID = "000000000000"
    let clock: @Sendable () -> Date
    /// How far a request's `x-amz-date` may be from now (AWS: 15 minutes).
    static let allowedSkew: TimeInterval = 15 * 60

    public init(credentials: [IAMCredential], clock: @escaping @Sendable () -> Date = { Date() }) {
        self.credentials = Dictionary(credentials.map { ($0.accessKeyID, $0) }, uniquingKeysWith: { first, _ in first })
        self.clock = clock
    }

    public var mode: AuthMode { .iam }

    public func authenticate(_ request: Credentials) async throws(AuthenticationFailure) -> Identity {
        guard let header = request["authorization"], let parsed = AuthorizationHeader(header),
            let credential = credentials[parsed.accessKeyID]
        else { throw .missingOrInvalid }
        guard let amzDate = request["x-amz-date"], let date = Self.date(amzDate),
            abs(date.timeIntervalSince(clock())) <= Self.allowedSkew, amzDate.hasPrefix(parsed.date)
        else { throw .missingOrInvalid }
        let canonical = canonicalRequest(request, signedHeaders: parsed.signedHeaders)
        let scope = "\(parsed.date)/\(parsed.region)/\(parsed.service)/aws4_request"
        let stringToSign = "AWS4-HMAC-SHA256\n\(amzDate)\n\(scope)\n\(Self.hex(SHA256.hash(data: Data(canonical.utf8))))"
        var key = SymmetricKey(data: Data("AWS4\(credential.secretAccessKey)".utf8))
        for part in [parsed.date, parsed.region, parsed.service, "aws4_request"] {
            key = SymmetricKey(data: Data(HMAC<SHA256>.authenticationCode(for: Data(part.utf8), using: key)))
        }
        let expected = Self.hex(HMAC<SHA256>.authenticationCode(for: Data(stringToSign.utf8), using: key))
        guard Self.constantTimeEqual(expected, parsed.signature) else { throw .missingOrInvalid }
        let role = credential.role == .authenticated ? "authRole" : "unauthRole"
        return Identity(
            mode: .iam,
            claims: [
                "accountId": .string(accountID),
                "userArn": .string("arn:aws:sts::\(accountID):assumed-role/\(role)/CognitoIdentityCredentials"),
                "accessKeyId": .string(credential.accessKeyID),
                "cognitoIdentityAuthType": .string(credential.role.rawValue),
            ],
            iamRole: credential.role)
    }

    /// AWS's canonical request for `request` and the headers the client signed.
    func canonicalRequest(_ request: Credentials, signedHeaders: [String]) -> String {
        let headers = signedHeaders.map { name in
            let value = (request[name] ?? "").split(whereSeparator: \.isWhitespace).joined(separator: " ")
            return "\(name):\(value)\n"
        }.joined()
        let payloadHash = request["x-amz-content-sha256"].flatMap { $0 == "UNSIGNED-PAYLOAD" ? $0 : $0 }
            ?? Self.hex(SHA256.hash(data: Data(request.body)))
        return [
            request.method.uppercased(), Self.canonicalPath(request.path), Self.canonicalQuery(request.query), headers,
            signedHeaders.joined(separator: ";"), payloadHash,
        ].joined(separator: "\n")
    }

    /// Each path segment URI-encoded (RFC 3986 unreserved characters kept).
    static func canonicalPath(_ path: String) -> String {
        let decoded = path.isEmpty ? "/" : path
        return decoded.split(separator: "/", omittingEmptySubsequences: false)
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

    static func date(_ amzDate: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter.date(from: amzDate)
    }

    private static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let (x, y) = (Array(a.utf8), Array(b.lowercased().utf8))
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// `AWS4-HMAC-SHA256 Credential=AKID/20260101/us-east-1/appsync/aws4_request, SignedHeaders=host;x-amz-date, Signature=...`.
    struct AuthorizationHeader {
        let accessKeyID: String
        let date: String
        let region: String
        let service: String
        let signedHeaders: [String]
        let signature: String

        init?(_ header: String) {
            guard header.hasPrefix("AWS4-HMAC-SHA256 ") else { return nil }
            var fields: [String: String] = [:]
            for part in header.dropFirst("AWS4-HMAC-SHA256 ".count).split(separator: ",") {
                let pair = part.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
                if pair.count == 2 { fields[String(pair[0])] = String(pair[1]) }
            }
            let scope = fields["Credential"]?.split(separator: "/").map(String.init) ?? []
            guard scope.count == 5, scope[4] == "aws4_request", let signed = fields["SignedHeaders"], let signature = fields["Signature"]
            else { return nil }
            accessKeyID = scope[0]
            date = scope[1]
            region = scope[2]
            service = scope[3]
            signedHeaders = signed.split(separator: ";").map { $0.lowercased() }
            self.signature = signature
        }
    }
}
