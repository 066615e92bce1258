import DeltaSyncCore
import DeltaSyncTesting
import Foundation
import Testing

/// The `DeltaSyncTesting` product as an app's tests use it: a server from a schema's text, a
/// realtime client, an event waiter.
@Suite struct TestingProductTests {
    static let schema = """
        type Todo @model {
          id: ID!
          name: String!
          done: Boolean
        }
        """

    @Test func aServerFromASchemaAnswersHTTPAndRealtime() async throws {
        try await DeltaSyncTestServer.withServer(schema: Self.schema) { server in
            let realtime = server.realtimeClient()
            _ = try await realtime.initialize()
            realtime.start(id: "s1", query: "subscription { onCreateTodo { id name _version } }", apiKey: server.apiKey)
            _ = try await realtime.next("start_ack")

            let created = try await server.graphQL(
                "mutation($i: CreateTodoInput!) { createTodo(input: $i) { id name _version } }",
                variables: ["i": ["id": "t1", "name": "milk"]])
            #expect(created["data"]["createTodo"] == ["id": "t1", "name": "milk", "_version": 1])

            let event = try await realtime.next("data")
            #expect(event["id"] == "s1")
            #expect(event["payload"]["data"]["onCreateTodo"] == ["id": "t1", "name": "milk", "_version": 1])
            _ = await realtime.close()

            let refused = try await server.graphQL("{ listTodos { items { id } } }", apiKey: "da2-wrong")
            #expect(refused["errors"][0]["errorType"] == "UnauthorizedException")
        }
    }

    @Test func anEventWaiterSeesEventsBeforeAndAfterTheWait() async throws {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        let waiter = EventWaiter(stream)
        continuation.yield(1)
        try await waiter.wait(for: "the first event") { $0 == 1 }
        continuation.yield(2)
        continuation.yield(2)
        try await waiter.wait(for: "two 2s", occurrences: 2) { $0 == 2 }
        #expect(waiter.events == [1, 2, 2])

        await #expect(throws: EventWaiter<Int>.TimedOut.self) {
            try await waiter.wait(for: "a 3", timeout: .milliseconds(50)) { $0 == 3 }
        }
        continuation.finish()
    }

    @Test func aTestServersFixtureSeedsAndMovesTheClock() async throws {
        try await DeltaSyncTestServer.withServer(schema: "type Todo @model { id: ID! name: String! }") { server in
            try await server.fixture.seed(#"{"Todo": [{"id": "t1", "name": "seeded", "_version": 5}]}"#)
            let read = try await server.graphQL("query { getTodo(id: \"t1\") { name _version } }")
            #expect(read["data"]["getTodo"] == ["name": "seeded", "_version": 5])
            server.fixture.clock.set(to: Date(timeIntervalSince1970: 2_000_000_000))
            let created = try await server.graphQL("mutation { createTodo(input: {name: \"n\"}) { createdAt } }")
            #expect(created["data"]["createTodo"]["createdAt"] == "2033-05-18T03:33:20.000Z")
        }
    }
}
