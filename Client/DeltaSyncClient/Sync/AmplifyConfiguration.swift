import DeltaSyncCore
import Foundation

/// What the app supplies for the API's modes that a configuration file cannot hold: the
/// signed-in user's tokens and AWS credentials. API keys come from the file.
///
/// ```swift
/// let credentials = SyncCredentials(userPoolTokens: { refresh in
///     "eyJ..."   // the signed-in user's token; in development, `deltasync token --username alice`
/// })
/// ```
public struct SyncCredentials: Sendable {
    /// Cognito user pool tokens (`AMAZON_COGNITO_USER_POOLS`).
    public var userPoolTokens: SyncAuthorization.TokenProvider?
    /// OpenID Connect tokens (`OPENID_CONNECT`).
    public var oidcTokens: SyncAuthorization.TokenProvider?
    /// Tokens for the API's Lambda authorizer (`AWS_LAMBDA`).
    public var lambdaTokens: SyncAuthorization.TokenProvider?
    /// AWS credentials to sign with (`AWS_IAM`), an identity pool's for instance.
    public var awsCredentials: SyncAuthorization.CredentialsProvider?

    /// Credentials for the modes the app uses; the others stay `nil`.
    public init(
        userPoolTokens: SyncAuthorization.TokenProvider? = nil, oidcTokens: SyncAuthorization.TokenProvider? = nil,
        lambdaTokens: SyncAuthorization.TokenProvider? = nil, awsCredentials: SyncAuthorization.CredentialsProvider? = nil
    ) {
        self.userPoolTokens = userPoolTokens
        self.oidcTokens = oidcTokens
        self.lambdaTokens = lambdaTokens
        self.awsCredentials = awsCredentials
    }
}

extension SyncEndpoint {
    /// The GraphQL API of an Amplify project's configuration: Gen 2's `amplify_outputs.json`
    /// (`data`), Gen 1's `amplifyconfiguration.json` (the `awsAPIPlugin` entry), or the same
    /// settings as `aws-exports` names them (`aws_appsync_graphqlEndpoint`, ...).
    ///
    /// The API's default mode becomes ``authorization``; its other modes (Gen 2 lists them in
    /// `authorization_types`; Gen 1 files do not, so every mode `credentials` or the file can
    /// give) become ``additionalAuthorizations``, which ``AuthModeStrategy/multiAuth`` picks from.
    ///
    /// ```swift
    /// let file = Bundle.main.url(forResource: "amplify_outputs", withExtension: "json")!
    /// let endpoint = try SyncEndpoint(amplifyConfiguration: Data(contentsOf: file), credentials: SyncCredentials(userPoolTokens: { refresh in "eyJ..." }))
    /// ```
    ///
    /// - Throws: ``DataStoreError/configuration(_:)`` when the file has no GraphQL API, or its
    ///   default mode needs credentials `credentials` does not give.
    public init(amplifyConfiguration data: Data, credentials: SyncCredentials = SyncCredentials()) throws(DataStoreError) {
        guard let text = String(data: data, encoding: .utf8), let json = try? JSONValue(parsing: text), case .object = json else {
            throw .configuration("the Amplify configuration is not a JSON object")
        }
        let api: AmplifyAPISettings
        let source: String
        if let url = json["data"]["url"].stringValue {
            let outputs = json["data"]
            api = AmplifyAPISettings(
                endpoint: url, region: outputs["aws_region"].stringValue, defaultMode: outputs["default_authorization_type"].stringValue,
                listedModes: outputs["authorization_types"].arrayValue?.compactMap(\.stringValue), apiKey: outputs["api_key"].stringValue)
            source = "amplify_outputs.json data"
        } else if let endpoint = json["aws_appsync_graphqlEndpoint"].stringValue {
            api = AmplifyAPISettings(
                endpoint: endpoint, region: json["aws_appsync_region"].stringValue,
                defaultMode: json["aws_appsync_authenticationType"].stringValue, listedModes: nil, apiKey: json["aws_appsync_apiKey"].stringValue)
            source = "aws_appsync_graphqlEndpoint"
        } else {
            let apis = json["api"]["plugins"]["awsAPIPlugin"].objectValue ?? [:]
            guard let (name, entry) = apis.sorted(by: { $0.key < $1.key }).first(where: { $0.value["endpointType"].stringValue == "GraphQL" }),
                let endpoint = entry["endpoint"].stringValue
            else {
                throw .configuration("the Amplify configuration has no GraphQL API: neither data.url (amplify_outputs.json) nor api.plugins.awsAPIPlugin (amplifyconfiguration.json)")
            }
            api = AmplifyAPISettings(
                endpoint: endpoint, region: entry["region"].stringValue, defaultMode: entry["authorizationType"].stringValue,
                listedModes: nil, apiKey: entry["apiKey"].stringValue)
            source = "API '\(name)'"
        }
        do {
            let (url, authorization, additional) = try api.resolve(with: credentials)
            self.init(url: url, authorization: authorization)
            additionalAuthorizations = additional
        } catch {
            throw .configuration("\(source): \(error.reason)")
        }
    }
}

/// One API's settings as a configuration file holds them.
private struct AmplifyAPISettings {
    let endpoint: String
    let region: String?
    let defaultMode: String?
    /// The API's other modes, when the file lists them (Gen 2).
    let listedModes: [String]?
    let apiKey: String?

    struct Problem: Error {
        let reason: String
    }

    /// The URL, the default mode's authorization and the others'.
    func resolve(with credentials: SyncCredentials) throws(Problem) -> (URL, SyncAuthorization, [SyncAuthorization]) {
        guard let url = URL(string: endpoint), url.scheme == "http" || url.scheme == "https" else {
            throw Problem(reason: "'\(endpoint)' is not an http(s) URL")
        }
        let defaultMode = self.defaultMode ?? "API_KEY"
        guard let primary = try authorization(defaultMode, credentials) else {
            throw Problem(reason: "its default authorization type is \(defaultMode), and \(Self.missing(defaultMode))")
        }
        // Gen 1 files name no other modes: every mode there is something for is offered.
        let others = listedModes ?? ["API_KEY", "AMAZON_COGNITO_USER_POOLS", "OPENID_CONNECT", "AWS_LAMBDA", "AWS_IAM"]
        var additional: [SyncAuthorization] = []
        for mode in others where mode != defaultMode {
            // A listed mode the app gives nothing for is left out: the rules that need it fail
            // over to the others, or report what is missing when used.
            if let authorization = try? authorization(mode, credentials), !additional.contains(where: { $0.mode == authorization.mode }) {
                additional.append(authorization)
            }
        }
        return (url, primary, additional)
    }

    /// The authorization for one of AppSync's modes, `nil` when nothing was given for it.
    private func authorization(_ mode: String, _ credentials: SyncCredentials) throws(Problem) -> SyncAuthorization? {
        switch mode {
        case "API_KEY": return apiKey.flatMap { $0.isEmpty ? nil : .apiKey($0) }
        case "AMAZON_COGNITO_USER_POOLS": return credentials.userPoolTokens.map { .userPools($0) }
        case "OPENID_CONNECT": return credentials.oidcTokens.map { .oidc($0) }
        case "AWS_LAMBDA": return credentials.lambdaTokens.map { .lambda($0) }
        case "AWS_IAM":
            guard let provider = credentials.awsCredentials else { return nil }
            guard let region, !region.isEmpty else { throw Problem(reason: "AWS_IAM needs the API's region, which the file does not give") }
            return .iam(region: region, credentials: provider)
        default:
            throw Problem(reason: "'\(mode)' is not one of AppSync's authorization types (API_KEY, AMAZON_COGNITO_USER_POOLS, OPENID_CONNECT, AWS_LAMBDA, AWS_IAM)")
        }
    }

    private static func missing(_ mode: String) -> String {
        switch mode {
        case "API_KEY": return "the file has no API key"
        case "AMAZON_COGNITO_USER_POOLS": return "no SyncCredentials.userPoolTokens were given"
        case "OPENID_CONNECT": return "no SyncCredentials.oidcTokens were given"
        case "AWS_LAMBDA": return "no SyncCredentials.lambdaTokens were given"
        default: return "no SyncCredentials.awsCredentials were given"
        }
    }
}
