import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncServer
import Testing

/// The schema's own `Query` and `Mutation` fields are part of the API. Until DeltaSync runs
/// their functions, a `@function` field answers as AppSync answers a function it could not
/// invoke: the field null, AppSync's error entry, the rest of the response kept.
@Suite struct CustomOperationServingTests {
    static let schema = """
        type Todo @model { id: ID! name: String! }
        type EchoResult { text: String! }
        type Query {
          echo(msg: String!): EchoResult @function(name: "echo-${env}")
          plain: String
        }
        """

    @Test func aFunctionFieldIsNullWithAFailedInvocationAndTheRestIsKept() async throws {
        let project = AmplifyProject(schema: try AmplifySchema.parse(source: Self.schema), schemaFiles: [])
        try await TestServer(project: project).withClient { client in
            let reply = try await client.graphQL("query { echo(msg: \"hi\") { text } plain listTodos { items { id } } }")
            #expect(reply.data["echo"] == .null)
            #expect(reply.data["listTodos"]["items"] == [])
            #expect(reply.data["plain"] == .null)
            #expect(reply.errors.count == 1)
            #expect(reply.firstError["errorType"] == "Lambda:Unhandled")
            #expect(reply.firstError["path"] == ["echo"])
            #expect(reply.firstError["message"].stringValue?.contains("'echo-${env}'") == true)
        }
    }
}
