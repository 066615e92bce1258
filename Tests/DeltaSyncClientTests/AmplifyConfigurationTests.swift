import DeltaSyncClient
import Foundation
import Testing

@Suite("Reading an Amplify project's configuration")
struct AmplifyConfigurationTests {
    @Test("the GraphQL API of amplifyconfiguration.json, and the aws-exports names")
    func readsTheEndpoint() throws {
        let gen1 = #"""
            {"UserAgent": "aws-amplify-cli/2.0", "Version": "1.0",
             "api": {"plugins": {"awsAPIPlugin": {
                "rest": {"endpointType": "REST", "endpoint": "https://rest.example.com", "authorizationType": "API_KEY", "apiKey": "x"},
                "blog": {"endpointType": "GraphQL", "endpoint": "http://127.0.0.1:20002/graphql", "region": "us-east-1",
                         "authorizationType": "API_KEY", "apiKey": "da2-blogkey"}}}}}
            """#
        let endpoint = try SyncEndpoint(amplifyConfiguration: Data(gen1.utf8))
        #expect(endpoint.url == URL(string: "http://127.0.0.1:20002/graphql"))
        #expect(endpoint.apiKey == "da2-blogkey")

        let exports = #"{"aws_appsync_graphqlEndpoint": "https://abc.appsync-api.eu-west-1.amazonaws.com/graphql", "aws_appsync_authenticationType": "API_KEY", "aws_appsync_apiKey": "da2-exports"}"#
        let fromExports = try SyncEndpoint(amplifyConfiguration: Data(exports.utf8))
        #expect(fromExports.apiKey == "da2-exports" && fromExports.url.host == "abc.appsync-api.eu-west-1.amazonaws.com")
    }

    @Test("amplify_outputs.json: every listed mode the app gives credentials for, the default first")
    func readsGen2Outputs() async throws {
        let outputs = #"""
            {"version": "1.3", "data": {"url": "https://abc.appsync-api.eu-west-1.amazonaws.com/graphql", "aws_region": "eu-west-1",
             "default_authorization_type": "AMAZON_COGNITO_USER_POOLS", "authorization_types": ["API_KEY", "AWS_IAM", "AWS_LAMBDA"],
             "api_key": "da2-outputs", "model_introspection": {}}}
            """#
        let credentials = SyncCredentials(
            userPoolTokens: { _ in "user-token" }, oidcTokens: { _ in "never listed" },
            awsCredentials: { _ in .init(accessKeyID: "ASIA1", secretAccessKey: "s", sessionToken: "t") })
        let endpoint = try SyncEndpoint(amplifyConfiguration: Data(outputs.utf8), credentials: credentials)
        #expect(endpoint.url.host == "abc.appsync-api.eu-west-1.amazonaws.com")
        #expect(endpoint.authorization.mode == .userPools)
        // AWS_LAMBDA is listed but the app gave no token for it; OIDC was given but is not the API's.
        #expect(endpoint.additionalAuthorizations.map(\.mode) == [.apiKey, .iam])
        guard case .iam(let region, _) = endpoint.additionalAuthorizations[1] else { Issue.record("not IAM"); return }
        #expect(region == "eu-west-1")
        guard case .userPools(let tokens) = endpoint.authorization else { return }
        #expect(try await tokens(false) == "user-token")

        let gen1 = #"{"api": {"plugins": {"awsAPIPlugin": {"blog": {"endpointType": "GraphQL", "endpoint": "https://x.example.com/graphql", "region": "us-east-1", "authorizationType": "AWS_IAM", "apiKey": "da2-also"}}}}}"#
        let iam = try SyncEndpoint(amplifyConfiguration: Data(gen1.utf8), credentials: credentials)
        #expect(iam.authorization.mode == .iam)
        #expect(iam.additionalAuthorizations.map(\.mode) == [.apiKey, .userPools, .oidc], "Gen 1 lists no other modes: all the app gave")
    }

    @Test("a configuration the client cannot use is refused with the reason")
    func refusesWhatItCannotUse() {
        let cognito = #"{"api": {"plugins": {"awsAPIPlugin": {"blog": {"endpointType": "GraphQL", "endpoint": "https://x.example.com/graphql", "authorizationType": "AMAZON_COGNITO_USER_POOLS"}}}}}"#
        #expect(throws: DataStoreError.configuration("API 'blog': its default authorization type is AMAZON_COGNITO_USER_POOLS, and no SyncCredentials.userPoolTokens were given")) {
            try SyncEndpoint(amplifyConfiguration: Data(cognito.utf8))
        }
        let noRegion = #"{"aws_appsync_graphqlEndpoint": "https://x.example.com/graphql", "aws_appsync_authenticationType": "AWS_IAM"}"#
        #expect(throws: DataStoreError.configuration("aws_appsync_graphqlEndpoint: AWS_IAM needs the API's region, which the file does not give")) {
            try SyncEndpoint(amplifyConfiguration: Data(noRegion.utf8), credentials: SyncCredentials(awsCredentials: { _ in .init(accessKeyID: "a", secretAccessKey: "b") }))
        }
        let unknown = #"{"data": {"url": "https://x.example.com/graphql", "default_authorization_type": "PASSWORD", "authorization_types": []}}"#
        #expect(throws: DataStoreError.configuration("amplify_outputs.json data: 'PASSWORD' is not one of AppSync's authorization types (API_KEY, AMAZON_COGNITO_USER_POOLS, OPENID_CONNECT, AWS_LAMBDA, AWS_IAM)")) {
            try SyncEndpoint(amplifyConfiguration: Data(unknown.utf8))
        }
        #expect(throws: DataStoreError.configuration("the Amplify configuration has no GraphQL API: neither data.url (amplify_outputs.json) nor api.plugins.awsAPIPlugin (amplifyconfiguration.json)")) {
            try SyncEndpoint(amplifyConfiguration: Data(#"{"api": {}}"#.utf8))
        }
        #expect(throws: DataStoreError.configuration("the Amplify configuration is not a JSON object")) {
            try SyncEndpoint(amplifyConfiguration: Data("not json".utf8))
        }
    }
}
