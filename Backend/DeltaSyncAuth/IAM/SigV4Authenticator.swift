import DeltaSyncCore
import DeltaSyncModelSchema
import DeltaSyncSigV4
import Foundation

/// `AWS_IAM`: a request signed with Signature Version 4 (`AWS4-HMAC-SHA256`) by one of the
/// configured access keys, checked as AWS checks it: the canonical request rebuilt from the
/// method, path, query, signed headers and body; the signing key derived from the secret,
/// date, region and service; the time within 15 minutes. The key's role becomes the caller's.
///
/// The canonical form and the signature are `SigV4`'s (DeltaSyncSigV4, shared with the client).
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
        guard let amzDate = request["x-amz-date"], let date = SigV4.date(amzDate),
            abs(date.timeIntervalSince(clock())) <= Self.allowedSkew, amzDate.hasPrefix(parsed.date)
        else { throw .missingOrInvalid }
        let expected = SigV4.signature(
            SigV4Request(method: request.method, path: request.path, query: request.query, headers: request.headers, body: request.body),
            signedHeaders: parsed.signedHeaders, secretAccessKey: credential.secretAccessKey, amzDate: amzDate,
            region: parsed.region, service: parsed.service)
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
