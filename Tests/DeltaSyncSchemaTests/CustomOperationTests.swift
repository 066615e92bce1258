import DeltaSyncSchema
import GraphQL
import Testing

/// `Query` and `Mutation` fields the schema declares itself, with their `@function` chains and
/// the `input` types their arguments use, are kept and printed in the AppSync schema.
struct CustomOperationTests {
    static let source = """
        type Todo @model { id: ID! name: String! }
        type EchoResult { text: String! length: Int }
        type EventInvocationResponse { success: Boolean! }
        input EchoOptions { loud: Boolean = false, times: Int }
        type Query {
          echo(msg: String!, options: EchoOptions): EchoResult @function(name: "echo-${env}")
          twice(msg: String): [String]! @function(name: "first") @function(name: "second")
          unresolved: String
        }
        type Mutation {
          shout(msg: String!): EventInvocationResponse @function(name: "shout", invocationType: Event)
        }
        """

    @Test func parsedWithTheirFunctionsAndPrintedBesideTheGeneratedOnes() throws {
        let schema = try AmplifySchema.parse(source: Self.source, file: "schema.graphql")
        #expect(schema.customOperations == [
            CustomOperation(
                parent: .query, name: "echo", arguments: [.init(name: "msg", type: "String!"), .init(name: "options", type: "EchoOptions")],
                returnType: "EchoResult", functions: [.init(name: "echo-${env}")]),
            CustomOperation(
                parent: .query, name: "twice", arguments: [.init(name: "msg", type: "String")], returnType: "[String]!",
                functions: [.init(name: "first"), .init(name: "second")]),
            CustomOperation(parent: .query, name: "unresolved", arguments: [], returnType: "String", functions: []),
            CustomOperation(
                parent: .mutation, name: "shout", arguments: [.init(name: "msg", type: "String!")],
                returnType: "EventInvocationResponse", functions: [.init(name: "shout", isEvent: true)]),
        ])
        #expect(schema.inputTypes == [
            InputType(name: "EchoOptions", fields: [.init(name: "loud", type: "Boolean = false"), .init(name: "times", type: "Int")])
        ])
        let sdl = schema.appSyncSDL()
        let query = try #require(sdl.members(of: "type Query"))
        #expect(query.contains("echo(msg: String!, options: EchoOptions): EchoResult"))
        #expect(query.contains("twice(msg: String): [String]!"))
        #expect(query.contains { $0.hasPrefix("listTodos(") })
        #expect(try #require(sdl.members(of: "type Mutation")).contains("shout(msg: String!): EventInvocationResponse"))
        #expect(try #require(sdl.members(of: "input EchoOptions")) == ["loud: Boolean = false", "times: Int"])
        _ = try buildSchema(source: sdl)
    }

    @Test func aFieldTheModelsAlsoGenerateIsAnErrorAtTheField() throws {
        let source = "type Todo @model { id: ID! name: String! }\ntype Query {\n  listTodos: String @function(name: \"f\")\n}"
        #expect {
            try AmplifySchema.parse(source: source, file: "schema.graphql")
        } throws: { error in
            guard let error = error as? SchemaError else { return false }
            return error.line == 3 && error.message.contains("'listTodos' is also generated")
        }
    }

    @Test func anInvocationTypeOtherThanAppSyncsIsRefused() throws {
        let source = "type Todo @model { id: ID! }\ntype Query { f: String @function(name: \"f\", invocationType: Later) }"
        #expect {
            try AmplifySchema.parse(source: source, file: "schema.graphql")
        } throws: { error in
            (error as? SchemaError)?.message.contains("RequestResponse or Event") == true
        }
    }
}
