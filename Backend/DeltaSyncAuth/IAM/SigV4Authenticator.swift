import DeltaSyncCore
import DeltaSyncModelSchema
import DeltaSyncSigV4
import Foundation

/// `AWS_IAM`: a request signed with Signature Version 4 (`AWS4-HMAC-SHA256`) by one of the
/// configured access keys, checked as AWS checks it: the canonical request rebuilt from the
/// method, path, query, signed headers and the body received; the signing key derived from the
/// secret, date, region and service; the time within 15 minutes. The key's role becomes the
/// caller's.
///
/// What a signature must cover, so that none can be replayed with another request:
/// - the body actually received (hashed here; an `x-amz-content-sha256` header must equal that
///   hash and be signed itself);
/// - `host` and `x-amz-date` among the signed headers;
/// - a credential scope naming service `appsync` and this server's ``region``.
///
/// Refusals are HTTP 403 with the signing layer's error types: `IncompleteSignatureException`
/// (a part missing), `InvalidSignatureException` (a signature, time, scope or body hash that
/// does not match) and `UnrecognizedClientException` (an unknown access key).
///
/// The canonical form and the signature are `SigV4`'s (DeltaSyncSigV4, shared with the client).
public struct SigV4Authenticator: Authenticator {
    public let credentials: [String: IAMCredential]
    /// The region credential scopes must name (``ServerConfiguration/region``). Default `us-east-1`.
    public let region: String
    /// The account the identity's `userArn` names.
    public var accountID = "000000000000"
    let clock: @Sendable () -> Date
    /// How far a request's `x-amz-date` may be from now (AWS: 15 minutes).
    static let allowedSkew: TimeInterval = 15 * 60

    public init(credentials: [IAMCredential], region: String = "us-east-1", clock: @escaping @Sendable () -> Date = { Date() }) {
        self.credentials = Dictionary(credentials.map { ($0.accessKeyID, $0) }, uniquingKeysWith: { first, _ in first })
        self.region = region
        self.clock = clock
    }

    public var mode: AuthMode { .iam }

    public func authenticate(_ request: Credentials) async throws(AuthenticationFailure) -> Identity {
        guard let header = request["authorization"] else { throw .missingOrInvalid }
        guard let parsed = AuthorizationHeader(header) else {
            throw .incompleteSignature("The AWS4-HMAC-SHA256 Authorization header needs Credential=KEY/DATE/REGION/SERVICE/aws4_request, SignedHeaders= and Signature=.")
        }
        for required in ["host", "x-amz-date"] where !parsed.signedHeaders.contains(required) {
            throw .incompleteSignature("'\(required)' must be one of the SignedHeaders of the AWS4-HMAC-SHA256 Authorization header.")
        }
        guard let credential = credentials[parsed.accessKeyID] else { throw .unrecognizedClient }
        guard parsed.service == SigV4.service else {
            throw .invalidSignature("The credential scope names service '\(parsed.service)'; sign for '\(SigV4.service)'.")
        }
        guard parsed.region == region else {
            throw .invalidSignature("The credential scope names region '\(parsed.region)'; this server's region is '\(region)'.")
        }
        guard let amzDate = request["x-amz-date"], let date = SigV4.date(amzDate) else {
            throw .incompleteSignature("A signed request needs an x-amz-date header (yyyyMMdd'T'HHmmss'Z').")
        }
        guard amzDate.hasPrefix(parsed.date) else {
            throw .invalidSignature("The credential scope's date \(parsed.date) is not the day of x-amz-date \(amzDate).")
        }
        guard abs(date.timeIntervalSince(clock())) <= Self.allowedSkew else {
            throw .invalidSignature("The signature's time \(amzDate) is more than 15 minutes from the server's clock.")
        }
        // The body received is what the signature must cover. A client may say which hash it
        // signed; it must be that body's, and signed, or it could stand for any body.
        let payloadHash = SigV4.payloadHash(request.body)
        if let declared = request["x-amz-content-sha256"] {
            guard parsed.signedHeaders.contains("x-amz-content-sha256") else {
                throw .invalidSignature("x-amz-content-sha256 is sent but not among the SignedHeaders.")
            }
            guard declared.lowercased() == payloadHash else {
                throw .invalidSignature("x-amz-content-sha256 is not the SHA-256 of the body received.")
            }
        }
        if let repeated = parsed.signedHeaders.first(where: request.repeatedHeaders.contains) {
            throw .invalidSignature("The signed header '\(repeated)' is sent more than once.")
        }
        let expected = SigV4.signature(
            SigV4Request(method: request.method, path: request.path, query: request.query, headers: request.headers, body: request.body),
            signedHeaders: parsed.signedHeaders, secretAccessKey: credential.secretAccessKey, amzDate: amzDate,
            region: parsed.region, service: parsed.service)
        guard Self.constantTimeEqual(expected, parsed.signature) else {
            throw .invalidSignature("The signature does not match the request received; check the secret access key and what was signed.")
        }
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
