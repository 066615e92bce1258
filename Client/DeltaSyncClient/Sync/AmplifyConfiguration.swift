import DeltaSyncCore
import Foundation

extension SyncEndpoint {
    /// The GraphQL API of an Amplify project's `amplifyconfiguration.json` (the `awsAPIPlugin`
    /// entry), or of the same settings as `aws-exports` names them
    /// (`aws_appsync_graphqlEndpoint`, `aws_appsync_apiKey`).
    ///
    /// ```swift
    /// let endpoint = try SyncEndpoint(amplifyConfiguration: Data(contentsOf: url.appendingPathComponent("amplifyconfiguration.json")))
    /// ```
    ///
    /// - Throws: ``DataStoreError/configuration(_:)`` when the file has no GraphQL API with an
    ///   API key (the only auth mode the client has today).
    public init(amplifyConfiguration data: Data) throws(DataStoreError) {
        guard let text = String(data: data, encoding: .utf8), let json = try? JSONValue(parsing: text), case .object = json else {
            throw .configuration("the Amplify configuration is not a JSON object")
        }
        if let endpoint = json["aws_appsync_graphqlEndpoint"].stringValue {
            do {
                try self.init(
                    endpoint: endpoint, authorization: json["aws_appsync_authenticationType"].stringValue,
                    apiKey: json["aws_appsync_apiKey"].stringValue)
            } catch {
                throw .configuration("aws_appsync_graphqlEndpoint: \(error.reason)")
            }
            return
        }
        let apis = json["api"]["plugins"]["awsAPIPlugin"].objectValue ?? [:]
        guard let (name, api) = apis.sorted(by: { $0.key < $1.key }).first(where: { $0.value["endpointType"].stringValue == "GraphQL" }),
            let endpoint = api["endpoint"].stringValue
        else {
            throw .configuration("the Amplify configuration has no GraphQL API under api.plugins.awsAPIPlugin")
        }
        do {
            try self.init(endpoint: endpoint, authorization: api["authorizationType"].stringValue, apiKey: api["apiKey"].stringValue)
        } catch {
            throw .configuration("API '\(name)': \(error.reason)")
        }
    }

    private init(endpoint: String, authorization: String?, apiKey: String?) throws(ConfigurationProblem) {
        guard let url = URL(string: endpoint), url.scheme == "http" || url.scheme == "https" else {
            throw ConfigurationProblem(reason: "'\(endpoint)' is not an http(s) URL")
        }
        guard authorization == nil || authorization == "API_KEY" else {
            throw ConfigurationProblem(reason: "its authorization type is \(authorization!); DeltaSyncClient syncs with an API key only (API_KEY)")
        }
        guard let apiKey, !apiKey.isEmpty else { throw ConfigurationProblem(reason: "it has no apiKey") }
        self.init(url: url, apiKey: apiKey)
    }

    private struct ConfigurationProblem: Error {
        let reason: String
    }
}
