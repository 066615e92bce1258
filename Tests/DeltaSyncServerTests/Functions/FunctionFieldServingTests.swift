import DeltaSyncAuth
import DeltaSyncCore
import DeltaSyncFunctions
import DeltaSyncServer
import DeltaSyncTesting
import Testing

/// `@function` fields answered by Swift closures through a live server: the event each
/// function receives, pipelines, `Event` invocations, errors, model fields, and a custom
/// subscription fired by a custom mutation.
@Suite struct FunctionFieldServingTests {
    static let schema = """
        type Todo @model { id: ID! name: String! summary: String @function(name: "summarize-${env}") }
        type EchoResult { text: String! seen: AWSJSON }
        type EventInvocationResponse @aws_api_key { success: Boolean! }
        type Message { room: String! text: String! }
        type Query {
          echo(msg: String!): EchoResult @function(name: "echo-${env}") @aws_api_key @aws_cognito_user_pools
          twice(msg: String!): EchoResult @function(name: "first") @function(name: "second")
          missing: String @function(name: "nobody")
          fails: String @function(name: "thrower")
          plain: String
        }
        type Mutation {
          notify(msg: String!): EventInvocationResponse @function(name: "notifier", invocationType: Event)
          send(room: String!, text: String!): Message @function(name: "send")
        }
        type Subscription {
          onSend(room: String): Message @aws_subscribe(mutations: ["send"])
        }
        """

    /// The events each function received, in order.
    final class Events: Sendable {
        private let continuation: AsyncStream<(String, JSONValue)>.Continuation
        let waiter: EventWaiter<(String, JSONValue)>

        init() {
            let (stream, continuation) = AsyncStream.makeStream(of: (String, JSONValue).self)
            self.continuation = continuation
            waiter = EventWaiter(stream)
        }

        func record(_ name: String, _ event: JSONValue) { continuation.yield((name, event)) }
        /// The first `count` events, once they arrived.
        func first(_ count: Int) async throws -> [(String, JSONValue)] {
            try await waiter.wait(for: "\(count) function calls", timeout: .seconds(10)) { $0.count >= count }
            return Array(waiter.events.prefix(count))
        }
    }

    static func withServer(
        configure: (inout ServerConfiguration) -> Void = { _ in }, _ body: (DeltaSyncTestServer, Events) async throws -> Void
    ) async throws {
        let events = Events()
        try await DeltaSyncTestServer.withServer(schema: schema, configure: { configuration in
            configuration.functions["echo"] = ClosureFunction { invocation in
                events.record("echo", invocation.event)
                return ["text": invocation.event["arguments"]["msg"], "seen": .string(invocation.event.jsonText)]
            }
            configuration.functions["first"] = ClosureFunction { invocation in
                events.record("first", invocation.event)
                return ["text": .string("first:" + (invocation.event["arguments"]["msg"].stringValue ?? ""))]
            }
            configuration.functions["second"] = ClosureFunction { invocation in
                events.record("second", invocation.event)
                return ["text": .string((invocation.event["prev"]["result"]["text"].stringValue ?? "") + "+second")]
            }
            configuration.functions["thrower"] = ClosureFunction { _ in
                throw FunctionFailure(errorType: "Error", errorMessage: "No such order")
            }
            configuration.functions["notifier"] = ClosureFunction { invocation in
                events.record("notifier", invocation.event)
                return "ignored"
            }
            configuration.functions["send"] = ClosureFunction { invocation in
                ["room": invocation.event["arguments"]["room"], "text": invocation.event["arguments"]["text"]]
            }
            configuration.functions["summarize"] = ClosureFunction { invocation in
                events.record("summarize", invocation.event)
                return .string("about " + (invocation.event["source"]["name"].stringValue ?? "?"))
            }
            configure(&configuration)
        }) { server in
            try await body(server, events)
        }
    }

    @Test func aQueryFunctionGetsAppSyncsEventAndItsResultIsTheValue() async throws {
        try await Self.withServer { server, events in
            let reply = try await server.graphQL(#"query { echo(msg: "hi") { text } plain }"#)
            #expect(reply["data"]["echo"]["text"] == "hi")
            #expect(reply["errors"] == .null)
            let (name, event) = try #require(try await events.first(1).first)
            #expect(name == "echo")
            #expect(event["typeName"] == "Query")
            #expect(event["fieldName"] == "echo")
            #expect(event["arguments"] == ["msg": "hi"])
            #expect(event["identity"] == .null)  // an API key caller
            #expect(event["source"] == .null)
            #expect(event["prev"] == ["result": [:]])
            #expect(event["request"]["headers"]["x-api-key"] == .string(server.apiKey))
            #expect(event["request"]["domainName"] == .null)
            #expect(Set(event.objectValue?.keys ?? [:].keys) == ["typeName", "fieldName", "arguments", "identity", "source", "request", "prev"])
        }
    }

    @Test func aTokenCallersIdentityIsTheirClaimsAndModeDirectivesDecideWhoMayCall() async throws {
        try await Self.withServer(configure: {
            $0.authModes = APIAuthModes(defaultMode: .apiKey, additionalModes: [.userPools])
        }) { server, events in
            let token = try await server.token(username: "alice", sub: "a1", groups: ["Admin"])
            let reply = try await server.graphQL(#"query { echo(msg: "hi") { text } }"#, token: token)
            #expect(reply["data"]["echo"]["text"] == "hi")
            let identity = try #require(try await events.first(1).first?.1["identity"])
            #expect(identity["sub"] == "a1")
            #expect(identity["username"] == "alice")
            #expect(identity["claims"]["cognito:username"] == "alice")
            #expect(identity["groups"] == ["Admin"])
            #expect(identity["defaultAuthStrategy"] == "ALLOW")
            #expect(identity["issuer"].stringValue?.isEmpty == false)
            // A custom field without mode directives admits the default mode (here the API key) alone.
            let refused = try await server.graphQL(#"query { twice(msg: "x") { text } }"#, token: token)
            #expect(refused["data"]["twice"] == .null)
            #expect(refused["errors"][0]["errorType"] == "Unauthorized")
            #expect(refused["errors"][0]["message"] == "Not Authorized to access twice on type Query")
        }
    }

    @Test func aPipelinePassesEachResultOnAndAnswersTheLast() async throws {
        try await Self.withServer { server, events in
            let reply = try await server.graphQL(#"query { twice(msg: "x") { text } }"#)
            #expect(reply["data"]["twice"]["text"] == "first:x+second")
            let calls = try await events.first(2)
            #expect(calls.map(\.0) == ["first", "second"])
            #expect(calls[1].1["prev"]["result"] == ["text": "first:x"])
            #expect(calls[1].1["fieldName"] == "twice")
        }
    }

    @Test func aFailedOrUnconfiguredFunctionNullsItsFieldWithAppSyncsErrorAndKeepsTheRest() async throws {
        try await Self.withServer { server, _ in
            let reply = try await server.graphQL(#"query { fails missing plain echo(msg: "ok") { text } }"#)
            #expect(reply["data"]["fails"] == .null)
            #expect(reply["data"]["missing"] == .null)
            #expect(reply["data"]["echo"]["text"] == "ok")
            let errors = reply["errors"].arrayValue ?? []
            let fails = try #require(errors.first { $0["path"] == ["fails"] })
            #expect(fails["errorType"] == "Lambda:Unhandled")
            #expect(fails["message"] == "No such order")
            #expect(fails["data"] == .null)
            let missing = try #require(errors.first { $0["path"] == ["missing"] })
            #expect(missing["errorType"] == "Lambda:Unhandled")
            #expect(missing["message"].stringValue?.contains("'nobody'") == true)
        }
    }

    @Test func anEventInvocationAnswersSuccessAtOnce() async throws {
        try await Self.withServer { server, events in
            let reply = try await server.graphQL(#"mutation { notify(msg: "later") { success } }"#)
            #expect(reply["data"]["notify"] == ["success": true])
            // The function still runs, unawaited.
            try await events.waiter.wait(for: "the Event invocation", timeout: .seconds(10)) { $0.0 == "notifier" }
            #expect(try await events.first(1).first?.1["arguments"] == ["msg": "later"])
        }
    }

    @Test func aModelFieldFunctionGetsTheItemAsSource() async throws {
        try await Self.withServer { server, events in
            _ = try await server.graphQL(#"mutation { createTodo(input: {id: "t1", name: "milk"}) { id } }"#)
            let reply = try await server.graphQL(#"query { getTodo(id: "t1") { id summary } listTodos { items { summary } } }"#)
            #expect(reply["data"]["getTodo"] == ["id": "t1", "summary": "about milk"])
            #expect(reply["data"]["listTodos"]["items"] == [["summary": "about milk"]])
            let event = try #require(try await events.first(1).first?.1)
            #expect(event["typeName"] == "Todo")
            #expect(event["fieldName"] == "summary")
            #expect(event["source"]["id"] == "t1")
            #expect(event["arguments"] == [:])
        }
    }

    @Test func aCustomSubscriptionReceivesItsCustomMutationsResult() async throws {
        try await Self.withServer { server, _ in
            let client = server.realtimeClient()
            _ = try await client.initialize()
            client.start(
                id: "s1", query: #"subscription { onSend(room: "r1") { room text __typename } }"#, apiKey: server.apiKey)
            _ = try await client.next("start_ack")
            _ = try await server.graphQL(#"mutation { send(room: "r2", text: "elsewhere") { room text } }"#)
            _ = try await server.graphQL(#"mutation { send(room: "r1", text: "hello") { room text } }"#)
            let data = try await client.next("data")
            #expect(data["payload"]["data"]["onSend"] == ["room": "r1", "text": "hello", "__typename": "Message"])
            _ = await client.close()
        }
    }
}

