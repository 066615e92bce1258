import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncServer
import DeltaSyncTesting
import Foundation
import HTTPTypes
import Testing

/// Apollo iOS with the AWS AppSync Apollo Extensions, as its source sends: named operations
/// with fragments and `operationName` over HTTP; a realtime socket at the endpoint plus
/// `/realtime` with no query string, the API key and `x-amz-date` in the upgrade's headers,
/// `connection_init` with an empty payload, `start` ids counting from "1" whose authorization
/// carries a `User-Agent`, `stop`, and `connection_terminate` before it closes.
@Suite struct ApolloAppSyncTests {
    static let document = """
        query ListPosts($limit: Int) {
          listPosts(limit: $limit) { __typename items { __typename ...PostDetails } nextToken }
        }
        query GetPost($id: ID!) {
          getPost(id: $id) { __typename ...PostDetails }
        }
        fragment PostDetails on Post { __typename id title status }
        """

    @Test func namedOperationsWithFragments() async throws {
        try await TestServer(project: try CLIStatementsTests.project()).withClient { client in
            _ = try await client.expectData(
                "createPost", #"mutation CreatePost { createPost(input: {id: "p1", blogID: "b1", title: "Apollo"}) { id } }"#)
            let body: JSONValue = ["operationName": "GetPost", "query": .string(Self.document), "variables": ["id": "p1"]]
            let reply = try await client.post(body.jsonText)
            #expect(reply.errors.isEmpty)
            #expect(reply.data == ["getPost": ["__typename": "Post", "id": "p1", "title": "Apollo", "status": "DRAFT"]])
            let list: JSONValue = ["operationName": "ListPosts", "query": .string(Self.document), "variables": ["limit": 5]]
            #expect(try await client.post(list.jsonText).data["listPosts"]["items"][0]["title"] == "Apollo")
        }
    }

    @Test func realtimeAsTheExtensionsSpeakIt() async throws {
        let server = try await TestServer(project: try CLIStatementsTests.project()).server
        let running = try await server.start()
        do {
            let date = "20261128T120000Z"
            let client = RealtimeTestClient(
                url: "ws://127.0.0.1:\(running.port)/graphql/realtime",
                headers: [HTTPField.Name("x-api-key")!: TestServer.apiKey, HTTPField.Name("x-amz-date")!: date])
            client.send(["type": "connection_init", "payload": [:]])
            _ = try await client.next("connection_ack")
            let request: JSONValue = [
                "query": "subscription OnCreatePost { onCreatePost { __typename id title } }", "variables": [:],
            ]
            client.send([
                "id": "1", "type": "start",
                "payload": [
                    "data": .string(request.jsonText),
                    "extensions": ["authorization": [
                        "host": "127.0.0.1", "x-api-key": .string(TestServer.apiKey), "x-amz-date": .string(date),
                        "User-Agent": "AWSAppSyncApolloExtensions/1.0",
                    ]],
                ],
            ])
            #expect(try await client.next("start_ack") == ["type": "start_ack", "id": "1"])
            _ = try await LiveHTTP.graphQL(
                running.graphQLURL, #"mutation CreatePost { createPost(input: {id: "p1", blogID: "b1", title: "Live"}) { __typename id title } }"#)
            let data = try await client.next("data")
            #expect(data["id"] == "1")
            #expect(data["payload"]["data"]["onCreatePost"] == ["__typename": "Post", "id": "p1", "title": "Live"])
            client.send(["type": "stop", "id": "1"])
            #expect(try await client.next("complete") == ["type": "complete", "id": "1"])
            client.send(["type": "connection_terminate"])
            let closing = try await client.closed()
            #expect(closing?.closeCode == .normalClosure, "connection_terminate ends the connection, no error frame")
        } catch {
            await running.stop()
            throw error
        }
        await running.stop()
    }
}
