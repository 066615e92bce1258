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

    @Test func modeDirectivesOfAFieldOrItsRootTypeAreKeptAndPrintedForTheAPIsModes() throws {
        let schema = try AmplifySchema.parse(source: """
            type Todo @model { id: ID! }
            type Query @aws_api_key {
              open: String @function(name: "f") @aws_cognito_user_pools @aws_iam
              inherited: String @function(name: "f")
            }
            """)
        #expect(schema.customOperations.map(\.modeDirectives) == [[.userPools, .iam], [.apiKey]])
        let sdl = schema.appSyncSDL(authModes: APIAuthModes(defaultMode: .apiKey, additionalModes: [.userPools]))
        // @aws_iam is not one of the API's modes: AppSync would refuse what no caller can use.
        #expect(sdl.contains("  open: String @aws_cognito_user_pools\n"))
        #expect(sdl.contains("  inherited: String @aws_api_key\n"))
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

    // MARK: - Subscriptions on custom mutations

    static let messages = """
        type Todo @model { id: ID! name: String! }
        type Message { room: String! text: String! }
        type Mutation {
          send(room: String!, text: String!): Message @function(name: "send")
          sendLoud(room: String!, text: String!): Message! @function(name: "send")
          archiveTodo(id: ID!): Todo @function(name: "archive")
        }
        type Subscription {
          onSend(room: String): Message @aws_subscribe(mutations: ["send", "sendLoud"])
          onTodoChange(name: String): Todo @aws_subscribe(mutations: ["createTodo", "archiveTodo"])
        }
        """

    static func error(_ source: String) -> SchemaError? {
        do {
            _ = try AmplifySchema.parse(source: source, file: "schema.graphql")
            return nil
        } catch {
            return error
        }
    }

    @Test func aSubscriptionOnCustomMutationsIsParsedAndPrinted() throws {
        let schema = try AmplifySchema.parse(source: Self.messages, file: "schema.graphql")
        #expect(schema.customSubscriptions == [
            CustomSubscription(
                name: "onSend", arguments: [.init(name: "room", type: "String")], returnType: "Message", mutations: ["send", "sendLoud"]),
            CustomSubscription(
                name: "onTodoChange", arguments: [.init(name: "name", type: "String")], returnType: "Todo",
                mutations: ["createTodo", "archiveTodo"]),
        ])
        let sdl = schema.appSyncSDL()
        #expect(sdl.member("onSend", of: "type Subscription") == #"onSend(room: String): Message @aws_subscribe(mutations: ["send", "sendLoud"])"#)
        #expect(
            sdl.member("onTodoChange", of: "type Subscription")
                == #"onTodoChange(name: String): Todo @aws_subscribe(mutations: ["createTodo", "archiveTodo"])"#)
        #expect(sdl.member("send", of: "type Mutation") == "send(room: String!, text: String!): Message")
        _ = try buildSchema(source: sdl)
    }

    @Test func aListedMutationReturningAnotherTypeIsAnError() throws {
        let mixed = try #require(Self.error(Self.messages.replacingOccurrences(of: #"["send", "sendLoud"]"#, with: #"["send", "createTodo"]"#)))
        #expect(mixed.line == 9 && mixed.column == 3)
        #expect(mixed.message == """
            subscription 'onSend' lists mutation 'createTodo', which returns 'Todo', not 'Message'; every listed mutation must return \
            the subscription's type
            """)
        let other = try #require(Self.error(Self.messages.replacingOccurrences(of: #"["send", "sendLoud"]"#, with: #"["send", "archiveTodo"]"#)))
        #expect(other.line == 9 && other.message.hasPrefix("subscription 'onSend' lists mutation 'archiveTodo', which returns 'Todo', not 'Message'"))
    }

    @Test func aListReturningCustomMutationDoesNotMatch() throws {
        let error = try #require(Self.error(Self.messages.replacingOccurrences(of: "sendLoud(room: String!, text: String!): Message!", with: "sendLoud(room: String!, text: String!): [Message]")))
        #expect(error.line == 9 && error.message.hasPrefix("subscription 'onSend' lists mutation 'sendLoud', which returns '[Message]', not 'Message'"))
    }

    @Test func anUnknownMutationBesideACustomOneIsAnError() throws {
        let error = try #require(Self.error(Self.messages.replacingOccurrences(of: #"["send", "sendLoud"]"#, with: #"["send", "shout"]"#)))
        #expect(error.line == 9 && error.message == "subscription 'onSend' lists mutation 'shout', which is not a Mutation field")
    }

    @Test func anArgumentMustBeAFieldOfTheReturnedType() throws {
        let error = try #require(Self.error(Self.messages.replacingOccurrences(of: "onSend(room: String)", with: "onSend(channel: String)")))
        #expect(error.line == 9 && error.message == "argument 'channel' of subscription 'onSend' filters on a field Message does not have")
    }

    @Test func aCustomMutationSubscriptionMustReturnAnObjectType() throws {
        let source = """
            type Todo @model { id: ID! }
            type Mutation { bump: Int @function(name: "bump") }
            type Subscription { onBump: Int @aws_subscribe(mutations: ["bump"]) }
            """
        let error = try #require(Self.error(source))
        #expect(error.line == 3 && error.column == 21)
        #expect(error.message == "subscription 'onBump' returns 'Int', which is not a @model or object type")
    }
}
