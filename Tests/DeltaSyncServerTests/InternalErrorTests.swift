import DeltaSyncCore
import Foundation
import GRDB
import Logging
import DeltaSyncTestSupport
import Testing

/// A failure DeltaSync did not expect (here: the database changed behind the server's back)
/// reaches the client as AppSync's `InternalFailure`, without SQL, SQLite's message or file
/// paths; the server log keeps all of it with the field it happened in.
@Suite struct InternalErrorTests {
    /// A server on a file database whose `Post` table another connection then drops, so every
    /// read or write of posts fails inside SQLite.
    private static func withBrokenPostTable(
        _ body: @Sendable (TestServer.Client, RecordedLog, _ folder: String) async throws -> Void
    ) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("deltasync-internal-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("db.sqlite").path
        let log = RecordedLog()
        try await TestServer(storage: .file(file), logger: log.logger).withClient { client in
            _ = try await client.expectData(
                "createPost", #"mutation { createPost(input: {id: "p1", blogID: "b1", title: "Before"}) { id } }"#)
            let outsider = try DatabaseQueue(path: file)
            try await outsider.write { db in try db.execute(sql: #"DROP TABLE "Post""#) }
            try outsider.close()
            try await body(client, log, folder.path)
        }
    }

    /// What must never reach a client: the store's SQL, SQLite's words, the database's path,
    /// source file names.
    private static func expectNoInternals(_ reply: GraphQLReply, folder: String) {
        let text = reply.json.jsonText
        for leak in ["SQLite", "SELECT", "INSERT", "UPDATE ", "no such table", "DatabaseError", folder, ".swift"] {
            #expect(!text.contains(leak), "the response shows '\(leak)': \(text)")
        }
    }

    private static func expectInternalFailure(_ reply: GraphQLReply, path: JSONValue) {
        #expect(reply.status == .ok)
        #expect(reply.errors.count == 1)
        #expect(reply.firstError["errorType"] == "InternalFailure")
        #expect(
            reply.firstError["message"]
                == "An internal error occurred while resolving this field; the server log has the details.")
        #expect(reply.firstError["path"] == path)
    }

    @Test func aFailingListQueryAnswersInternalFailureWithoutTheSQL() async throws {
        try await Self.withBrokenPostTable { client, log, folder in
            let reply = try await client.graphQL("{ listPosts { items { id title } nextToken } }")
            Self.expectInternalFailure(reply, path: ["listPosts"])
            #expect(reply.data == ["listPosts": nil])
            Self.expectNoInternals(reply, folder: folder)

            let logged = log.recorded.filter { $0.level == .error && $0.metadata["location"] != nil }
            #expect(logged.count == 1)
            #expect(logged.first?.metadata["location"] == "listPosts")
            #expect(logged.first?.text.contains("no such table") == true, "the log names the cause: \(logged.map(\.text))")
        }
    }

    @Test func aFailingMutationFromDataStoreAnswersInternalFailureWithoutTheSQL() async throws {
        // The document and variables DataStore sends, which run without the GraphQL executor.
        try await Self.withBrokenPostTable { client, log, folder in
            let reply = try await client.graphQL(
                "mutation CreatePost($input: CreatePostInput!) { createPost(input: $input) { id title _version } }",
                ["input": ["id": "p2", "blogID": "b1", "title": "After"]])
            Self.expectInternalFailure(reply, path: ["createPost"])
            #expect(reply.data == ["createPost": nil])
            Self.expectNoInternals(reply, folder: folder)
            #expect(log.recorded.contains { $0.level == .error && $0.metadata["location"] == "createPost" })
        }
    }

    @Test func aFailingNestedFieldKeepsItsPathAndTheRestOfTheAnswer() async throws {
        try await Self.withBrokenPostTable { client, log, folder in
            _ = try await client.expectData("createBlog", #"mutation { createBlog(input: {id: "b1", name: "Kept"}) { id } }"#)
            let reply = try await client.graphQL(#"{ getBlog(id: "b1") { name posts { items { id } } } }"#)
            Self.expectInternalFailure(reply, path: ["getBlog", "posts"])
            #expect(reply.data["getBlog"]["name"] == "Kept")
            Self.expectNoInternals(reply, folder: folder)
            #expect(log.recorded.contains { $0.level == .error && $0.metadata["location"] == "getBlog.posts" })
        }
    }

    @Test func appSyncErrorsKeepTheirTypeAndMessage() async throws {
        try await TestServer().withClient { client in
            _ = try await client.expectData(
                "createPost", #"mutation { createPost(input: {id: "p1", blogID: "b1", title: "A"}) { id } }"#)
            let reply = try await client.graphQL(
                #"mutation { createPost(input: {id: "p1", blogID: "b1", title: "B"}) { id } }"#)
            #expect(reply.firstError["errorType"] == "ConditionalCheckFailedException")
            #expect(
                reply.firstError["message"]
                    == "The conditional request failed (Service: DynamoDb, Status Code: 400, Request ID: null)")
        }
    }
}
