import DeltaSyncAuth

/// The schema's `@auth` rules name a provider whose mode the API does not have: Amplify's
/// transform refuses such a schema, and so does the server, saying what to add.
public struct AuthModeMismatch: Error, CustomStringConvertible, Sendable {
    public let missing: [AuthMode]
    public let modes: APIAuthModes

    public var description: String {
        let names = missing.map(\.rawValue).joined(separator: ", ")
        let flags = missing.map(AuthModeMismatch.flagName).joined(separator: ",")
        return "the schema's @auth rules use \(names), which the API's modes (\(modes.all.map(\.rawValue).joined(separator: ", "))) "
            + "do not include: add --additional-auth-mode \(flags), or add the mode to the project's cli-inputs.json"
    }

    /// The `--auth-mode` spelling of a mode.
    static func flagName(_ mode: AuthMode) -> String {
        switch mode {
        case .apiKey: return "apiKey"
        case .userPools: return "userPools"
        case .oidc: return "oidc"
        case .lambda: return "lambda"
        case .iam: return "iam"
        }
    }
}
