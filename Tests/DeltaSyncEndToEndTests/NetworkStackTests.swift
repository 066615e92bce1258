import DeltaSyncClient
import DeltaSyncCore
import DeltaSyncTesting
import Foundation
import Logging
import Testing

/// The same protocol tests for every network stack the client has: HTTP through the system's
/// `URLSession` and through NIO (both run on Linux), the realtime WebSocket through NIO here
/// and through `URLSessionWebSocketTask` on Apple platforms (Linux's Foundation has no
/// WebSocket; `.github/workflows/apple-client.yml` runs these on macOS and the iOS simulator).
@Suite("Network stacks: the same answers through URLSession and NIO")
struct NetworkStackTests {
    static let http: [String: any HTTPExchange] = ["URLSession": URLSessionHTTPExchange(session: .shared), "NIO": NIOHTTPExchange()]

    static let realtime: [String: any RealtimeTransport] = {
        var transports: [String: any RealtimeTransport] = ["NIO": NIORealtimeTransport(logger: Logger(label: "test"))]
        #if canImport(Darwin)
        transports["URLSession"] = URLSessionRealtimeTransport(session: .shared)
        #endif
        return transports
    }()

    /// The realtime stacks this platform has: each runs the test below, none passes by skipping.
    static let realtimeStacks = realtime.keys.sorted()

    @Test("a query and a mutation, a GraphQL error, a refused key", arguments: ["URLSession", "NIO"])
    func graphQLOverHTTP(stack: String) async throws {
        let http = try #require(Self.http[stack])
        try await SyncServer.run { server in
            let client = GraphQLClient(endpoint: server.endpoint, http: http)
            let created = try await client.execute(
                "mutation($i: CreateBlogInput!) { createBlog(input: $i) { id name _version } }", variables: ["i": ["id": "b1", "name": "Mine"]])
            #expect(created.data["createBlog"] == ["id": "b1", "name": "Mine", "_version": 1])
            let read = try await client.execute(#"{ getBlog(id: "b1") { name } }"#, variables: [:])
            #expect(read.data["getBlog"]["name"] == "Mine")
            let invalid = try await client.execute("{ getBlog { nope } }", variables: [:])
            #expect(invalid.data == .null)
            #expect(invalid.errors.first?["message"] == "Validation error of type FieldUndefined: Field 'nope' in type 'Blog' is undefined @ 'nope'")

            let refused = GraphQLClient(endpoint: SyncEndpoint(url: server.endpoint.url, apiKey: "da2-wrong"), http: http)
            await #expect(throws: DataStoreError.self) { try await refused.execute("{ listBlogs { items { id } } }", variables: [:]) }
        }
    }

    @Test("a backend that cannot be reached is a network error at once", arguments: ["URLSession", "NIO"])
    func unreachable(stack: String) async throws {
        let http = try #require(Self.http[stack])
        let client = GraphQLClient(endpoint: SyncEndpoint(url: URL(string: "http://127.0.0.1:1/graphql")!, apiKey: "da2-x"), http: http)
        do {
            _ = try await client.execute("{ listBlogs { items { id } } }", variables: [:])
            Issue.record("a closed port answered")
        } catch {
            guard case .network(let reason) = error else { Issue.record("not a network error: \(error)"); return }
            #expect(reason.hasPrefix("cannot reach http://127.0.0.1:1/graphql"))
        }
    }

    @Test("the realtime handshake and a subscription's event", arguments: realtimeStacks)
    func realtimeWebSocket(stack: String) async throws {
        let transport = try #require(Self.realtime[stack])
        try await SyncServer.run { server in
            let header = Data(#"{"host":"127.0.0.1:\#(server.port)","x-api-key":"\#(SyncServer.apiKey)"}"#.utf8).base64EncodedString()
            let url = try #require(URL(string: "ws://127.0.0.1:\(server.port)/graphql/realtime?header=\(header)&payload=e30=".replacingOccurrences(of: "+", with: "%2B")))
            let received = Locked<[String]>([])
            try await transport.run(url) { incoming, send in
                try await send(#"{"type":"connection_init"}"#)
                for try await text in incoming {
                    received.withLock { $0.append(text) }
                    let message = try JSONValue(parsing: text)
                    switch message["type"].stringValue {
                    case "connection_ack":
                        let start: JSONValue = [
                            "id": "1", "type": "start",
                            "payload": [
                                "data": .string((["query": "subscription { onCreateBlog { id name } }", "variables": [:]] as JSONValue).jsonText),
                                "extensions": ["authorization": ["host": .string("127.0.0.1:\(server.port)"), "x-api-key": .string(SyncServer.apiKey)]],
                            ],
                        ]
                        try await send(start.jsonText)
                    case "start_ack":
                        _ = try await DeltaSyncTestServer.graphQL(
                            #"mutation { createBlog(input: {id: "live", name: "Heard"}) { id name _version _lastChangedAt _deleted } }"#,
                            url: server.graphQLURL, apiKey: SyncServer.apiKey)
                    case "data":
                        #expect(message["payload"]["data"]["onCreateBlog"]["name"] == "Heard")
                        return
                    default:
                        continue
                    }
                }
                Issue.record("the connection ended before the event")
            }
            let types = received.withLock { $0 }.compactMap { try? JSONValue(parsing: $0)["type"].stringValue }
            #expect(types.filter { $0 != "ka" } == ["connection_ack", "start_ack", "data"])
        }
    }
}
