import DeltaSyncCore
import Foundation

/// The API's authorization modes from an Amplify Gen 1 API folder's `cli-inputs.json`:
///
/// ```json
/// { "serviceConfiguration": {
///     "defaultAuthType": { "mode": "AMAZON_COGNITO_USER_POOLS", "cognitoUserPoolId": "authmyapp" },
///     "additionalAuthTypes": [ { "mode": "API_KEY", "expirationTime": 7 }, { "mode": "AWS_IAM" } ] } }
/// ```
///
/// Older projects have only `parameters.json`, which names a user pool (`AuthCognitoUserPoolId`)
/// and whether an API key is made (`CreateAPIKey`, `APIKeyExpirationEpoch`), not the default
/// mode: the user pool is taken as the default when there is one (see docs/compatibility.md).
enum ProjectAuthSettings {
    /// The modes `parameters.json` implies; `nil` when it names neither a user pool nor an API key.
    static func modes(fromParameters data: Data, file: String) throws(SchemaError) -> APIAuthModes? {
        guard let root = try? JSONDecoder().decode(JSONValue.self, from: data), let object = root.objectValue else {
            throw SchemaError(file: file, line: 0, column: 0, message: "parameters.json is not a JSON object")
        }
        let userPool = object["AuthCognitoUserPoolId"].map { !$0.isNull } ?? false
        let apiKey = object["CreateAPIKey"]?.intValue == 1 || (object["APIKeyExpirationEpoch"]?.intValue ?? 0) > 0
        switch (userPool, apiKey) {
        case (true, true): return APIAuthModes(defaultMode: .userPools, additionalModes: [.apiKey])
        case (true, false): return APIAuthModes(defaultMode: .userPools)
        case (false, true): return APIAuthModes(defaultMode: .apiKey)
        case (false, false): return nil
        }
    }

    static func modes(from data: Data, file: String) throws(SchemaError) -> APIAuthModes {
        guard let root = try? JSONDecoder().decode(JSONValue.self, from: data), root.objectValue != nil else {
            throw SchemaError(file: file, line: 0, column: 0, message: "cli-inputs.json is not a JSON object")
        }
        let service = root["serviceConfiguration"]
        guard let defaultMode = service["defaultAuthType"]["mode"].stringValue else {
            throw SchemaError(
                file: file, line: 0, column: 0,
                message: "cli-inputs.json has no serviceConfiguration.defaultAuthType.mode (API_KEY, AMAZON_COGNITO_USER_POOLS, ...)")
        }
        let additional = (service["additionalAuthTypes"].arrayValue ?? []).compactMap { $0["mode"].stringValue }
        var modes: [AuthMode] = []
        for name in [defaultMode] + additional {
            guard let mode = AuthMode(rawValue: name) else {
                throw SchemaError(
                    file: file, line: 0, column: 0,
                    message: "cli-inputs.json names the auth mode '\(name)'; expected one of "
                        + AuthMode.allCases.map(\.rawValue).joined(separator: ", "))
            }
            modes.append(mode)
        }
        return APIAuthModes(defaultMode: modes[0], additionalModes: Array(modes.dropFirst()))
    }
}
