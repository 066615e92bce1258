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

    @Test("a configuration the client cannot use is refused with the reason")
    func refusesWhatItCannotUse() {
        let cognito = #"{"api": {"plugins": {"awsAPIPlugin": {"blog": {"endpointType": "GraphQL", "endpoint": "https://x.example.com/graphql", "authorizationType": "AMAZON_COGNITO_USER_POOLS"}}}}}"#
        #expect(throws: DataStoreError.configuration("API 'blog': its authorization type is AMAZON_COGNITO_USER_POOLS; DeltaSyncClient syncs with an API key only (API_KEY)")) {
            try SyncEndpoint(amplifyConfiguration: Data(cognito.utf8))
        }
        #expect(throws: DataStoreError.configuration("the Amplify configuration has no GraphQL API under api.plugins.awsAPIPlugin")) {
            try SyncEndpoint(amplifyConfiguration: Data(#"{"api": {}}"#.utf8))
        }
        #expect(throws: DataStoreError.configuration("the Amplify configuration is not a JSON object")) {
            try SyncEndpoint(amplifyConfiguration: Data("not json".utf8))
        }
    }
}
