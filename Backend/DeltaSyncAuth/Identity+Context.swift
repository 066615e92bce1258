import DeltaSyncCore

extension Identity {
    /// The caller as AppSync's `$ctx.identity` shows them, which `@function` events carry as
    /// `identity`: `null` for an API key; for a user pool the token's `sub`, `issuer`,
    /// `username`, `claims`, `sourceIp`, `defaultAuthStrategy` and `groups`; for OIDC `sub`,
    /// `issuer` and `claims`; for IAM the caller's role; for a Lambda authorizer its
    /// `resolverContext`.
    ///
    /// ```swift
    /// Identity(mode: .oidc, claims: ["sub": "u1", "iss": "https://id.example"]).contextValue()
    /// // {"sub": "u1", "issuer": "https://id.example", "claims": {...}}
    /// ```
    public func contextValue(sourceIP: String? = nil) -> JSONValue {
        let sourceIp: JSONValue = .array(sourceIP.map { [.string($0)] } ?? [])
        switch mode {
        case .apiKey:
            return .null
        case .userPools:
            let groups = self.groups()
            return [
                "sub": claims["sub"] ?? .null,
                "issuer": claims["iss"] ?? .null,
                "username": username.map(JSONValue.string) ?? .null,
                "claims": .object(claims),
                "sourceIp": sourceIp,
                "defaultAuthStrategy": "ALLOW",
                "groups": groups.isEmpty ? .null : .array(groups.map(JSONValue.string)),
            ]
        case .oidc:
            return ["sub": claims["sub"] ?? .null, "issuer": claims["iss"] ?? .null, "claims": .object(claims)]
        case .iam:
            // What the SigV4 authenticator recorded of the signer (account, role ARN, key),
            // in the shape of an identity pool caller without an identity pool behind it.
            return [
                "accountId": claims["accountId"] ?? .null,
                "cognitoIdentityPoolId": .null,
                "cognitoIdentityId": .null,
                "sourceIp": sourceIp,
                "username": claims["accessKeyId"] ?? .null,
                "userArn": claims["userArn"] ?? .null,
                "cognitoIdentityAuthType": claims["cognitoIdentityAuthType"] ?? iamRole.map { .string($0.rawValue) } ?? .null,
                "cognitoIdentityAuthProvider": .null,
            ]
        case .lambda:
            return ["resolverContext": .object(resolverContext)]
        }
    }
}
