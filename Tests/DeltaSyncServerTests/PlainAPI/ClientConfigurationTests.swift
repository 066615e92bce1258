import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncServer
import Foundation
import Testing

/// The configuration files `deltasync config` writes from the fixture API's answer.
@Suite struct ClientConfigurationTests {
    /// `amplify_outputs.json` carries the schema's `model_introspection`, so `generateClient()`
    /// has `client.models`; `aws-exports.js` for plain HTTP says what Amplify JS v6 needs.
    @Test func amplifyOutputsCarryTheModelIntrospection() async throws {
        let project = try Gen2ClientTests.project()
        try await TestServer(project: project).withClient { client in
            #expect(try await client.admin(.get, "/admin/status").json["conflictDetection"] == "NONE")
            let answer = try await client.admin(.get, "/admin/client-config")
            #expect(answer.status == .ok)
            #expect(answer.json["modelIntrospection"] == project.schema.modelIntrospection)
            let configuration = ClientConfiguration(
                url: try #require(answer.json["url"].stringValue), authModes: APIAuthModes(defaultMode: .apiKey),
                apiKey: answer.json["apiKey"].stringValue, modelIntrospection: answer.json["modelIntrospection"])
            let outputs = try JSONValue(parsing: configuration.amplifyOutputs)
            #expect(outputs["version"] == "1.5")
            #expect(outputs["data"]["default_authorization_type"] == "API_KEY")
            #expect(outputs["data"]["api_key"] == .string(TestServer.apiKey))
            #expect(outputs["data"]["model_introspection"]["models"]["Post"]["fields"]["blog"]["association"]["targetNames"] == ["blogId"])
            #expect(configuration.awsExports.contains("Amplify JS v6 opens subscriptions at wss://"))
            let secure = ClientConfiguration(url: "https://localhost:8443/graphql", authModes: APIAuthModes(defaultMode: .apiKey), apiKey: "k")
            #expect(!secure.awsExports.contains("Amplify JS v6"), "the note is for plain HTTP only")
            #expect(!secure.amplifyOutputs.contains("model_introspection"))
        }
    }
}
