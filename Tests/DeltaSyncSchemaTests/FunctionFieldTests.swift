import DeltaSyncSchema
import GraphQL
import Testing

/// `@function` on fields of models and non-model types, and Amplify's checks of
/// `invocationType: Event`.
struct FunctionFieldTests {
    static let source = """
        type Post @model {
          id: ID!
          title: String!
          wordCount: Int @function(name: "countWords-${env}")
          summary: Summary @function(name: "first") @function(name: "second")
        }
        type Summary {
          text: String
          sentiment: String @function(name: "sentiment")
        }
        """

    static func parse(_ source: String) throws -> AmplifySchema {
        try AmplifySchema.parse(source: source, file: "schema.graphql")
    }

    static func error(_ source: String) -> SchemaError? {
        do {
            _ = try parse(source)
            return nil
        } catch {
            return error as? SchemaError
        }
    }

    @Test func modelAndNonModelFieldsAreRecordedAndStayFields() throws {
        let schema = try Self.parse(Self.source)
        #expect(schema.functionFields == [
            FunctionField(typeName: "Post", fieldName: "wordCount", functions: [.init(name: "countWords-${env}")]),
            FunctionField(typeName: "Post", fieldName: "summary", functions: [.init(name: "first"), .init(name: "second")]),
            FunctionField(typeName: "Summary", fieldName: "sentiment", functions: [.init(name: "sentiment")]),
        ])
        #expect(schema.model(named: "Post")?.field(named: "wordCount") != nil)
        #expect(schema.nonModels.first?.fields.map(\.name) == ["text", "sentiment"])
        #expect(schema.customOperations.isEmpty)
        let sdl = schema.appSyncSDL()
        #expect(sdl.member("wordCount", of: "type Post") == "wordCount: Int")
        #expect(sdl.member("sentiment", of: "type Summary") == "sentiment: String")
        _ = try buildSchema(source: sdl)
    }

    @Test func aFieldsInvocationTypeIsReadAsOnCustomOperations() throws {
        let source = "type Post @model { id: ID! n: Int @function(name: \"f\", invocationType: RequestResponse) }"
        #expect(try Self.parse(source).functionFields == [
            FunctionField(typeName: "Post", fieldName: "n", functions: [.init(name: "f")])
        ])
        let error = try #require(Self.error("type Post @model { id: ID! n: Int @function(name: \"f\", invocationType: Later) }"))
        #expect(error.message == "@function invocationType is RequestResponse or Event" && error.column == 72)
    }

    // MARK: - invocationType: Event

    static let eventResponse = "type EventInvocationResponse { success: Boolean! }"

    @Test func eventOnAModelFieldIsAnErrorAtTheField() throws {
        let error = try #require(Self.error(
            "type Post @model {\n  id: ID!\n  n: EventInvocationResponse @function(name: \"f\", invocationType: Event)\n}\n" + Self.eventResponse))
        #expect(error.line == 3 && error.column == 3)
        #expect(error.message == "@function definition with 'invocationType: Event' must be defined on Query or Mutation field.")
    }

    @Test func eventOnANonModelOrSubscriptionFieldIsAnError() throws {
        let nonModel = try #require(Self.error(
            "type Post @model { id: ID! }\ntype Stats {\n  n: Int @function(name: \"g\") @function(name: \"f\", invocationType: Event)\n}"))
        #expect(nonModel.line == 3 && nonModel.message.hasSuffix("must be defined on Query or Mutation field."))
        let subscription = try #require(Self.error(
            "type Post @model { id: ID! }\n\(Self.eventResponse)\ntype Subscription {\n  "
                + "onPing: EventInvocationResponse @function(name: \"f\", invocationType: Event)\n}"))
        #expect(subscription.line == 4 && subscription.message.hasSuffix("must be defined on Query or Mutation field."))
    }

    @Test func aLastEventFunctionNeedsTheEventResponseType() throws {
        let error = try #require(Self.error("""
            type Post @model { id: ID! }
            \(Self.eventResponse)
            type Mutation {
              doStuff(msg: String): String @function(name: "bar") @function(name: "foo", invocationType: Event)
            }
            """))
        #expect(error.line == 4 && error.column == 3)
        #expect(error.message == """
            Invalid return type String for doStuff(msg: String): String @function(name: bar) @function(name: foo, invocationType: Event). \
            Use return type 'EventInvocationResponse' and, if necessary, add 'type EventInvocationResponse { success: Boolean! }' to \
            your model schema.
            """)
        let nonNull = try #require(Self.error("""
            type Post @model { id: ID! }
            \(Self.eventResponse)
            type Mutation { doStuff: EventInvocationResponse! @function(name: "foo", invocationType: Event) }
            """))
        #expect(nonNull.message.hasPrefix("Invalid return type EventInvocationResponse! for doStuff: EventInvocationResponse! @function("))
    }

    @Test func anEventFollowedByARequestResponseReturnsWhatTheLastReturns() throws {
        let schema = try Self.parse("""
            type Post @model { id: ID! }
            type Mutation { doStuff(msg: String): String @function(name: "foo", invocationType: Event) @function(name: "bar") }
            """)
        #expect(schema.customOperations.first?.functions == [.init(name: "foo", isEvent: true), .init(name: "bar")])
    }

    @Test func theEventResponseTypeMustBeDeclared() throws {
        let error = try #require(Self.error("""
            type Post @model { id: ID! }
            type Query { ping: EventInvocationResponse @function(name: "foo", invocationType: Event) }
            """))
        #expect(error.line == 2 && error.column == 14)
        #expect(error.message == """
            Missing 'EventInvocationResponse' definition. Add this type definition to your schema: \
            type EventInvocationResponse { success: Boolean! }
            """)
    }

    @Test func theEventResponseTypeMustHaveExactlyTheSuccessField() throws {
        let message = """
            Invalid 'EventInvocationResponse' definition. Update the type definition in your schema to: \
            type EventInvocationResponse { success: Boolean! }
            """
        for declaration in [
            "type EventInvocationResponse { success: Boolean }",
            "type EventInvocationResponse { success: Boolean! detail: String }",
            "type EventInvocationResponse { ok: Boolean! }",
        ] {
            let error = try #require(Self.error("""
                type Post @model { id: ID! }
                \(declaration)
                type Mutation {
                  ping: EventInvocationResponse @function(name: "foo", invocationType: Event)
                }
                """))
            #expect(error.line == 4 && error.column == 3)
            #expect(error.message == message)
        }
    }

    @Test func aValidEventMutationIsPrintedWithItsResponseType() throws {
        let schema = try Self.parse("""
            type Post @model { id: ID! }
            \(Self.eventResponse)
            type Mutation {
              ping(msg: String): EventInvocationResponse @function(name: "bar") @function(name: "foo", invocationType: Event)
            }
            """)
        #expect(schema.customOperations == [
            CustomOperation(
                parent: .mutation, name: "ping", arguments: [.init(name: "msg", type: "String")], returnType: "EventInvocationResponse",
                functions: [.init(name: "bar"), .init(name: "foo", isEvent: true)])
        ])
        let sdl = schema.appSyncSDL()
        #expect(sdl.members(of: "type EventInvocationResponse") == ["success: Boolean!"])
        #expect(sdl.member("ping", of: "type Mutation") == "ping(msg: String): EventInvocationResponse")
        let built = try buildSchema(source: sdl)
        #expect(built.getType(name: "EventInvocationResponse") != nil)
    }
}
