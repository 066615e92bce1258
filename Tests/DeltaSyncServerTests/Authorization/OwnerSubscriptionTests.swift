import DeltaSyncCore
import Foundation
import DeltaSyncServer
import DeltaSyncTesting
import HTTPTypes
import Testing

/// Subscriptions of an owner-scoped model (appsync-auth.md §3.5): owners receive only their
/// own events with or without the `owner` argument, a wrong `owner` argument is refused, an
/// Admin receives everything, and the handshake and every `start` are authenticated.
@Suite struct OwnerSubscriptionTests {
    static let onCreate = "subscription($owner: String) { onCreateTodo(owner: $owner) { id owner } }"

    static func client(_ server: DeltaSyncTestServer, token: String) async throws -> RealtimeTestClient {
        let client = RealtimeTestClient(url: server.realtimeURL, headers: [.authorization: token])
        _ = try await client.initialize()
        return client
    }

    @Test func ownersReceiveOnlyTheirEventsAndAdminsReceiveAll() async throws {
        try await OwnerRuleTests.withCallers { callers in
            let server = callers.server
            let alice = try await Self.client(server, token: callers.alice)
            let bob = try await Self.client(server, token: callers.bob)
            let carol = try await Self.client(server, token: callers.carol)
            alice.start(id: "a", query: Self.onCreate, token: callers.alice)
            bob.start(id: "b", query: Self.onCreate, variables: ["owner": "bob"], token: callers.bob)
            carol.start(id: "c", query: Self.onCreate, token: callers.carol)
            for client in [alice, bob, carol] { _ = try await client.next("start_ack") }

            _ = try await callers.create(callers.alice, id: "from-alice")
            _ = try await callers.create(callers.bob, id: "from-bob")
            // Each connection gets events in commit order: had Alice's event reached Bob, it
            // would come before his own.
            #expect(try await alice.next("data")["payload"]["data"]["onCreateTodo"]["id"] == "from-alice")
            #expect(try await bob.next("data")["payload"]["data"]["onCreateTodo"]["id"] == "from-bob")
            #expect(try await carol.next("data")["payload"]["data"]["onCreateTodo"]["id"] == "from-alice")
            let second = try await carol.next("data")["payload"]["data"]["onCreateTodo"]
            #expect(second["id"] == "from-bob")
            #expect(second["owner"] == "bob")
            _ = try await callers.create(callers.alice, id: "again")
            #expect(try await alice.next("data")["payload"]["data"]["onCreateTodo"]["id"] == "again")
            for client in [alice, bob, carol] { _ = await client.close() }
        }
    }

    @Test func aWrongOwnerArgumentOrAStartWithoutCredentialsIsRefused() async throws {
        try await OwnerRuleTests.withCallers { callers in
            let bob = try await Self.client(callers.server, token: callers.bob)
            bob.start(id: "1", query: Self.onCreate, variables: ["owner": "alice"], token: callers.bob)
            let refused = try await bob.next("error")
            #expect(refused["id"] == "1")
            #expect(refused["payload"]["errors"][0]["errorType"] == "Unauthorized")
            #expect(refused["payload"]["errors"][0]["message"] == "Not Authorized to access onCreateTodo on type Subscription")
            // A start may use another mode than the connection: here the API key, which may read.
            bob.start(id: "2", query: Self.onCreate, apiKey: callers.server.apiKey)
            #expect(try await bob.next("start_ack")["id"] == "2")
            bob.start(id: "3", query: Self.onCreate, token: "garbage")
            #expect(try await bob.next("error")["payload"]["errors"][0]["errorType"] == "UnauthorizedException")
            _ = await bob.close()

            let stranger = RealtimeTestClient(url: callers.server.realtimeURL, headers: [.authorization: "garbage"])
            stranger.send(["type": "connection_init", "payload": [:]])
            let error = try await stranger.next("connection_error")
            #expect(error["payload"]["errors"][0]["errorType"] == "UnauthorizedException")
            _ = await stranger.close()
        }
    }

    @Test func aTokenInTheHeaderSubprotocolAuthenticatesTheConnection() async throws {
        try await OwnerRuleTests.withCallers { callers in
            // Amplify JS 6.5+: the handshake's headers as base64url JSON in a `header-` subprotocol.
            let header: JSONValue = ["host": "127.0.0.1", "Authorization": .string(callers.alice)]
            let encoded = Base64URL.encode(Data(header.jsonText.utf8))
            let client = RealtimeTestClient(url: callers.server.realtimeURL, extraProtocols: ["header-\(encoded)"])
            #expect(try await client.initialize()["type"] == "connection_ack")
            client.start(id: "1", query: Self.onCreate, token: callers.alice)
            _ = try await client.next("start_ack")
            _ = try await callers.create(callers.alice, id: "via-subprotocol")
            #expect(try await client.next("data")["payload"]["data"]["onCreateTodo"]["id"] == "via-subprotocol")
            _ = await client.close()
        }
    }
}
