import DeltaSyncCore
import DeltaSyncResolverFiles
import DeltaSyncSchema
import DeltaSyncServer
import DeltaSyncTesting
import Foundation
import Testing

/// A custom stack's APPSYNC_JS resources: inline `Code` and a `CodeS3Location` file in a pipeline
/// with a template function, served; a resource without its code, and a `.js` file no stack
/// names, said with their files.
@Suite struct CustomStackCodeTests {
    static let schema = """
        type Todo @model @auth(rules: [{allow: public}]) { id: ID! name: String }
        type Query { shout(text: String!): String }
        """

    /// An API folder with `schema.graphql`, the stack and `resolvers/` files.
    static func apiFolder(stack: JSONValue, files: [String: String] = [:]) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stack-code-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("stacks"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("resolvers"), withIntermediateDirectories: true)
        try schema.write(to: folder.appendingPathComponent("schema.graphql"), atomically: true, encoding: .utf8)
        try stack.jsonText.write(to: folder.appendingPathComponent("stacks/CustomResources.json"), atomically: true, encoding: .utf8)
        for (name, text) in files { try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        return folder
    }

    static let runtime: JSONValue = ["Name": "APPSYNC_JS", "RuntimeVersion": "1.0.0"]

    @Test func inlineAndFileCodeRunInAPipelineWithATemplate() async throws {
        let stack: JSONValue = ["Resources": [
            "UpperFunction": ["Type": "AWS::AppSync::FunctionConfiguration", "Properties": [
                "Name": "Upper", "DataSourceName": "NONE_DS", "Runtime": Self.runtime,
                "Code": "export const request = (ctx) => ({ payload: ctx.args.text.toUpperCase() });\nexport const response = (ctx) => ctx.result;",
            ]],
            "BangFunction": ["Type": "AWS::AppSync::FunctionConfiguration", "Properties": [
                "Name": "Bang", "DataSourceName": "NONE_DS", "FunctionVersion": "2018-05-29",
                "RequestMappingTemplate": #"{"version": "2018-05-29", "payload": "${ctx.prev.result}!"}"#,
                "ResponseMappingTemplate": "$util.toJson($ctx.result)",
            ]],
            "ShoutResolver": ["Type": "AWS::AppSync::Resolver", "Properties": [
                "TypeName": "Query", "FieldName": "shout", "Kind": "PIPELINE", "Runtime": Self.runtime,
                "PipelineConfig": ["Functions": [["Fn::GetAtt": ["UpperFunction", "FunctionId"]], ["Fn::GetAtt": ["BangFunction", "FunctionId"]]]],
                "CodeS3Location": ["Fn::Sub": "s3://${S3DeploymentBucket}/${S3DeploymentRootKey}/resolvers/Query.shout.js"],
            ]],
        ]]
        let folder = try Self.apiFolder(stack: stack, files: [
            "resolvers/Query.shout.js": "export function request(ctx) { return {}; }\nexport function response(ctx) { return `${ctx.prev.result} (${ctx.stash.by ?? 'js'})`; }\n",
            "resolvers/Unused.js": "export const request = () => ({});\nexport const response = () => null;\n",
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let project = try AmplifyProject.load(projectDirectory: folder.path)
        let files = try ProjectResolvers.load(apiDirectory: folder.path, schema: project.schema)
        #expect(files.findings.map(\.description) == [
            "resolvers/Unused.js: not run: no custom stack's resolver or function names this APPSYNC_JS file (CodeS3Location), so nothing runs it",
        ])
        try await DeltaSyncTestServer.withServer(project: project) { configuration in
            configuration.resolvers = files.resolvers
            configuration.dataSources = files.dataSources
        } _: { server in
            let shouted = try await server.graphQL(#"{ shout(text: "hey") }"#)
            #expect(shouted["errors"].isNull)
            #expect(shouted["data"]["shout"] == "HEY! (js)")
        }
    }

    @Test func aResourceWithoutItsCodeStopsTheStart() throws {
        let stack: JSONValue = ["Resources": ["R": ["Type": "AWS::AppSync::Resolver", "Properties": [
            "TypeName": "Query", "FieldName": "shout", "DataSourceName": "NONE_DS", "Runtime": Self.runtime,
        ]]]]
        let folder = try Self.apiFolder(stack: stack)
        defer { try? FileManager.default.removeItem(at: folder) }
        let schema = try AmplifyProject.load(projectDirectory: folder.path).schema
        do {
            _ = try ProjectResolvers.load(apiDirectory: folder.path, schema: schema)
            Issue.record("a resolver without its code loaded")
        } catch {
            #expect(error.description == "stacks/CustomResources.json#R: error: an APPSYNC_JS resource needs its code: Code (inline) or CodeS3Location (a file under resolvers/).")
        }
    }
}
