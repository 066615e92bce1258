import DeltaSyncCore
import DeltaSyncSchema
@testable import DeltaSyncServer
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

/// AppSync's HTTP data source against a local endpoint: the request template's method, path,
/// query, headers and body reach the service; every answer, a 404 too, reaches the response
/// template as `{statusCode, headers, body}`.
@Suite struct HTTPDataSourceTests {
    static let schema = "type Note @model { id: ID! }\n    type Query { lookup(id: ID!): AWSJSON }"

    @Test func aTemplatesRequestReachesTheServiceAndEveryAnswerTheTemplate() async throws {
        let router = Router()
        router.post("/items/:id") { request, context -> Response in
            let body = String(buffer: try await request.body.collect(upTo: 1 << 16))
            let seen: JSONValue = [
                "id": .string(context.parameters.get("id") ?? ""), "q": .string(request.uri.query ?? ""),
                "header": .string(request.headers[HTTPField.Name("x-team")!] ?? ""), "body": .string(body),
            ]
            let status: HTTPResponse.Status = context.parameters.get("id") == "missing" ? .notFound : .ok
            return Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: seen.jsonText)))
        }
        let service = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await service.test(.live) { serviceClient in
            let request = #"""
                {"version": "2018-05-29", "method": "POST", "resourcePath": "/items/$ctx.args.id",
                 "params": {"query": {"a b": "c&d"}, "headers": {"x-team": "blue"}, "body": {"n": 1}}}
                """#
            let response = "#if($ctx.error)$util.error($ctx.error.message, $ctx.error.type)#end$util.toJson($util.toJson({\"status\": $ctx.result.statusCode, \"seen\": $util.parseJson($ctx.result.body)}))"
            func server(_ endpoint: String) async throws -> TestServer {
                try await TestServer(project: AmplifyProject(schema: try AmplifySchema.parse(source: Self.schema), schemaFiles: [])) {
                    $0.dataSources = [DataSourceDefinition(name: "Items", kind: .http(endpoint: endpoint))]
                    $0.resolvers = [ResolverDefinition(type: "Query", field: "lookup", kind: .unit(dataSource: "Items", request: request, response: response))]
                }
            }
            try await server("http://127.0.0.1:\(serviceClient.port!)").withClient { client in
                let found = try await client.graphQL(#"{ lookup(id: "i1") }"#)
                let answer = try JSONValue(parsing: found.data["lookup"].stringValue ?? "")
                #expect(answer["status"] == 200)
                #expect(answer["seen"] == ["id": "i1", "q": "a%20b=c%26d", "header": "blue", "body": #"{"n":1}"#])
                // A 404 is the template's to judge: here it passes the status on.
                let missing = try await client.graphQL(#"{ lookup(id: "missing") }"#)
                #expect(try JSONValue(parsing: missing.data["lookup"].stringValue ?? "")["status"] == 404)
            }
        }
    }
}
