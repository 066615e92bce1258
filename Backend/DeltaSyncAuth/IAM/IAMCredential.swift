/// An access key a local server accepts for `AWS_IAM`, and the identity pool role it stands
/// for: `authenticated` callers match `allow: private, provider: iam` rules, `unauthenticated`
/// ones `allow: public, provider: iam`.
///
/// ```swift
/// let guest = try IAMCredential(argument: "AKIDGUEST:guestsecret:unauthenticated")
/// ```
public struct IAMCredential: Sendable, Equatable {
    public var accessKeyID: String
    public var secretAccessKey: String
    public var role: Identity.IAMRole

    public init(accessKeyID: String, secretAccessKey: String, role: Identity.IAMRole = .authenticated) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.role = role
    }

    /// `ACCESS_KEY_ID:SECRET[:authenticated|unauthenticated]` (default `authenticated`).
    public init(argument: String) throws(IAMCredentialError) {
        let parts = argument.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard (2...3).contains(parts.count), !parts[0].isEmpty, !parts[1].isEmpty else {
            throw IAMCredentialError("'\(argument)' is not ACCESS_KEY_ID:SECRET[:authenticated|unauthenticated]")
        }
        var role = Identity.IAMRole.authenticated
        if parts.count == 3 {
            guard let named = Identity.IAMRole(rawValue: parts[2]) else {
                throw IAMCredentialError("the role of '\(parts[0])' must be authenticated or unauthenticated, not '\(parts[2])'")
            }
            role = named
        }
        self.init(accessKeyID: parts[0], secretAccessKey: parts[1], role: role)
    }
}

/// An `--iam-credentials` value that cannot be read.
public struct IAMCredentialError: Error, CustomStringConvertible, Sendable {
    public var description: String
    init(_ description: String) { self.description = description }
}
