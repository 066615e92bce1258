import DeltaSyncCore
import DeltaSyncSchema

/// What an Amplify app needs to reach a DeltaSync server, and the configuration files the
/// Amplify libraries read it from: `amplifyconfiguration.json` (Swift, Android, Flutter),
/// `aws-exports.js` (JavaScript, Gen 1) and `amplify_outputs.json` (Gen 2 libraries).
///
/// ```swift
/// let configuration = ClientConfiguration(url: "http://127.0.0.1:20002/graphql", authModes: server.authModes, apiKey: server.apiKey)
/// try configuration.files["amplifyconfiguration.json"]!.write(toFile: "amplifyconfiguration.json", atomically: true, encoding: .utf8)
/// ```
public struct ClientConfiguration: Sendable, Equatable {
    /// The GraphQL endpoint, `http(s)://host:port/graphql`.
    public var url: String
    /// AppSync's region; clients need one, DeltaSync ignores it.
    public var region: String
    public var authModes: APIAuthModes
    /// The API key, when the API has API-key auth.
    public var apiKey: String?
    /// The name of the API in `amplifyconfiguration.json`.
    public var apiName: String
    /// ``AmplifySchema/modelIntrospection`` of the served schema: `amplify_outputs.json` carries
    /// it as `data.model_introspection`, which Gen 2's `generateClient()` needs for
    /// `client.models`. `nil` leaves it out.
    public var modelIntrospection: JSONValue?

    public init(
        url: String, region: String = "us-east-1", authModes: APIAuthModes, apiKey: String?, apiName: String = "deltasync",
        modelIntrospection: JSONValue? = nil
    ) {
        self.url = url
        self.region = region
        self.authModes = authModes
        self.apiKey = authModes.contains(.apiKey) ? apiKey : nil
        self.apiName = apiName
        self.modelIntrospection = modelIntrospection
    }

    /// The realtime endpoint: the same host and path over `ws(s)`.
    public var realtimeURL: String {
        url.hasPrefix("https://") ? "wss://" + url.dropFirst(8) : "ws://" + url.dropFirst(url.hasPrefix("http://") ? 7 : 0)
    }

    private var isPlainHTTP: Bool { url.hasPrefix("http://") }

    /// The fixture API's `GET /admin/client-config`.
    public var json: JSONValue {
        [
            "url": .string(url), "realtimeUrl": .string(realtimeURL), "region": .string(region),
            "defaultAuthMode": .string(authModes.defaultMode.rawValue),
            "additionalAuthModes": .array(authModes.additionalModes.map { .string($0.rawValue) }),
            "apiKey": apiKey.map(JSONValue.string) ?? .null,
            "modelIntrospection": modelIntrospection ?? .null,
        ]
    }

    /// Every file by name.
    public var files: [String: String] {
        ["amplifyconfiguration.json": amplifyConfiguration, "aws-exports.js": awsExports, "amplify_outputs.json": amplifyOutputs]
    }

    /// Amplify Swift, Android and Flutter: the API plugin's endpoint with its default mode.
    public var amplifyConfiguration: String {
        var api: [String: JSONValue] = [
            "endpointType": "GraphQL", "endpoint": .string(url), "region": .string(region),
            "authorizationType": .string(authModes.defaultMode.rawValue),
        ]
        if let apiKey { api["apiKey"] = .string(apiKey) }
        let root: JSONValue = [
            "UserAgent": "aws-amplify-cli/2.0", "Version": "1.0",
            "api": ["plugins": ["awsAPIPlugin": .object([apiName: .object(api)])]],
        ]
        return root.prettyText + "\n"
    }

    /// Amplify JS (Gen 1 configuration). A plain-HTTP endpoint carries the flag `amplify mock`
    /// sets, without which Amplify JS v5 refuses it, and a comment on what v6 needs: it opens
    /// the realtime socket at `wss://` whatever the endpoint's scheme.
    public var awsExports: String {
        var lines = [
            ("aws_project_region", JSONValue.string(region)),
            ("aws_appsync_graphqlEndpoint", .string(url)),
            ("aws_appsync_region", .string(region)),
            ("aws_appsync_authenticationType", .string(authModes.defaultMode.rawValue)),
        ]
        if let apiKey { lines.append(("aws_appsync_apiKey", .string(apiKey))) }
        if !authModes.additionalModes.isEmpty {
            lines.append(("aws_appsync_additionalAuthenticationTypes", .string(authModes.additionalModes.map(\.rawValue).joined(separator: ","))))
        }
        if isPlainHTTP { lines.append(("aws_appsync_dangerously_connect_to_http_endpoint_for_testing", true)) }
        let body = lines.map { "    \"\($0.0)\": \($0.1.jsonText)" }.joined(separator: ",\n")
        let note = isPlainHTTP ? Self.plainHTTPNote.map { "// \($0)\n" }.joined() : ""
        return "// Written by `deltasync config`: points the app at a DeltaSync server.\n\(note)const awsmobile = {\n\(body)\n};\n\nexport default awsmobile;\n"
    }

    /// What a plain-HTTP configuration says about Amplify JS v6's realtime connection.
    static let plainHTTPNote = [
        "Amplify JS v6 opens subscriptions at wss://<host>/graphql/realtime even for an http:// endpoint:",
        "serve with TLS (deltasync serve --tls-cert/--tls-key, or a certificate from deltasync dev-cert) and",
        "write the https:// URL here, or subscriptions never connect. Queries and mutations work either way.",
    ]

    /// Amplify Gen 2 libraries: the `data` section, with `model_introspection` when known.
    public var amplifyOutputs: String {
        var data: [String: JSONValue] = [
            "url": .string(url), "aws_region": .string(region),
            "default_authorization_type": .string(authModes.defaultMode.rawValue),
            "authorization_types": .array(authModes.additionalModes.map { .string($0.rawValue) }),
        ]
        if let apiKey { data["api_key"] = .string(apiKey) }
        if let modelIntrospection { data["model_introspection"] = modelIntrospection }
        let outputs: JSONValue = ["version": "1.5", "data": .object(data)]
        return outputs.prettyText + "\n"
    }
}
