import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncServer
import DeltaSyncTesting
import Foundation
import Testing

/// The blog API served without conflict detection, as Amplify generates it for the API
/// category and Gen 2: no sync metadata, writes conditioned on the key, physical deletes and
/// DynamoDB's own error for a failed condition.
@Suite struct PlainAPITests {
    static func server() async throws -> TestServer {
        try await TestServer(project: try ExampleSchema.blogProject().servingConflictDetection(.none, because: "the test"))
    }

    static let createBlog = """
        mutation CreateBlog($input: CreateBlogInput!, $condition: ModelBlogConditionInput) {
          createBlog(input: $input, condition: $condition) { id name createdAt updatedAt __typename }
        }
        """
    static let updateBlog = """
        mutation UpdateBlog($input: UpdateBlogInput!, $condition: ModelBlogConditionInput) {
          updateBlog(input: $input, condition: $condition) { id name website updatedAt }
        }
        """
    static let deleteBlog = """
        mutation DeleteBlog($input: DeleteBlogInput!, $condition: ModelBlogConditionInput) {
          deleteBlog(input: $input, condition: $condition) { id name website }
        }
        """

    /// A failed condition as AppSync answers it without conflict detection.
    static func expectConditionFailed(_ reply: GraphQLReply, _ field: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(reply.data[field] == .null, sourceLocation: sourceLocation)
        let error = reply.firstError
        #expect(error["errorType"] == "DynamoDB:ConditionalCheckFailedException", sourceLocation: sourceLocation)
        #expect(error["path"] == .array([.string(field)]), sourceLocation: sourceLocation)
        #expect(error["data"] == .null, "no stored item without conflict detection", sourceLocation: sourceLocation)
        let message = error["message"].stringValue ?? ""
        #expect(message.hasPrefix("The conditional request failed (Service: DynamoDb, Status Code: 400, Request ID: "), sourceLocation: sourceLocation)
        #expect(message.range(of: #"Request ID: [A-Z0-9]{52}\)$"#, options: .regularExpression) != nil, sourceLocation: sourceLocation)
    }

    @Test func theSchemaHasNoSyncMetadata() async throws {
        try await Self.server().withClient { client in
            let reply = try await client.graphQL("""
                { post: __type(name: "Post") { fields { name } }
                  connection: __type(name: "ModelPostConnection") { fields { name } }
                  delete: __type(name: "DeletePostInput") { inputFields { name } }
                  update: __type(name: "UpdatePostInput") { inputFields { name } }
                  filter: __type(name: "ModelPostFilterInput") { inputFields { name } }
                  query: __type(name: "Query") { fields { name } } }
                """)
            let names = { (type: String, list: String) in Set((reply.data[type][list].arrayValue ?? []).compactMap { $0["name"].stringValue }) }
            #expect(names("post", "fields").isDisjoint(with: ["_version", "_deleted", "_lastChangedAt"]))
            #expect(names("post", "fields").isSuperset(of: ["id", "title", "createdAt", "updatedAt"]))
            #expect(names("connection", "fields") == ["items", "nextToken"])
            #expect(names("delete", "inputFields") == ["id"])
            #expect(!names("update", "inputFields").contains("_version"))
            #expect(!names("filter", "inputFields").contains("_deleted"))
            #expect(names("query", "fields").contains("listPosts"))
            #expect(!names("query", "fields").contains { $0.hasPrefix("sync") }, "no syncX queries")

            let metadata = try await client.graphQL("{ listPosts { items { id _version } } }")
            #expect(metadata.firstError["message"].stringValue?.contains("_version") == true, "metadata is not a field")
        }
    }

    /// Served versioned, an update without `_version` kept the stored name (Automerge); plain,
    /// it applies.
    @Test func anUpdateWithoutVersionApplies() async throws {
        try await Self.server().withClient { client in
            let created = try await client.expectData("createBlog", Self.createBlog, ["input": ["id": "b1", "name": "A"]])
            #expect(created["__typename"] == "Blog")
            #expect(created["createdAt"] == created["updatedAt"])
            let updated = try await client.expectData(
                "updateBlog", Self.updateBlog, ["input": ["id": "b1", "name": "B", "website": "https://b.example"]])
            #expect(updated["name"] == "B")
            #expect(updated["website"] == "https://b.example")
            #expect(updated["updatedAt"].stringValue! >= created["updatedAt"].stringValue!)
            let cleared = try await client.expectData("updateBlog", Self.updateBlog, ["input": ["id": "b1", "website": nil]])
            #expect(cleared["website"] == .null, "an explicit null removes the attribute")
            #expect(cleared["name"] == "B", "what the input leaves out stays")
            let read = try await client.expectData("getBlog", #"{ getBlog(id: "b1") { name website } }"#)
            #expect(read == ["name": "B", "website": nil])
        }
    }

    @Test func writesAreConditionedOnTheKey() async throws {
        try await Self.server().withClient { client in
            _ = try await client.expectData("createBlog", Self.createBlog, ["input": ["id": "b1", "name": "A"]])
            Self.expectConditionFailed(
                try await client.graphQL(Self.createBlog, ["input": ["id": "b1", "name": "Again"]]), "createBlog")
            Self.expectConditionFailed(
                try await client.graphQL(Self.updateBlog, ["input": ["id": "missing", "name": "X"]]), "updateBlog")
            Self.expectConditionFailed(try await client.graphQL(Self.deleteBlog, ["input": ["id": "missing"]]), "deleteBlog")
            let read = try await client.expectData("getBlog", #"{ getBlog(id: "b1") { name } }"#)
            #expect(read["name"] == "A", "no failed write changed the item")
        }
    }

    @Test func theCallersConditionDecides() async throws {
        try await Self.server().withClient { client in
            _ = try await client.expectData("createBlog", Self.createBlog, ["input": ["id": "b1", "name": "A"]])
            Self.expectConditionFailed(
                try await client.graphQL(Self.updateBlog, ["input": ["id": "b1", "name": "B"], "condition": ["name": ["eq": "Z"]]]),
                "updateBlog")
            Self.expectConditionFailed(
                try await client.graphQL(Self.deleteBlog, ["input": ["id": "b1"], "condition": ["name": ["ne": "A"]]]), "deleteBlog")
            let updated = try await client.expectData(
                "updateBlog", Self.updateBlog, ["input": ["id": "b1", "name": "B"], "condition": ["name": ["eq": "A"]]])
            #expect(updated["name"] == "B")
            Self.expectConditionFailed(
                try await client.graphQL(Self.createBlog, ["input": ["id": "b2", "name": "C"], "condition": ["name": ["attributeExists": true]]]),
                "createBlog")
        }
    }

    /// A delete removes the item and answers it as it was; its key is free again.
    @Test func aDeleteRemovesTheItemAndAnswersIt() async throws {
        try await Self.server().withClient { client in
            _ = try await client.expectData("createBlog", Self.createBlog, ["input": ["id": "b1", "name": "A", "website": "https://a.example"]])
            _ = try await client.expectData("createBlog", Self.createBlog, ["input": ["id": "b2", "name": "Kept"]])
            _ = try await client.expectData(
                "createPost", "mutation { createPost(input: {id: \"p1\", blogID: \"b1\", title: \"T\", publishedAt: \"2026-01-01T00:00:00Z\"}) { id } }")
            let deleted = try await client.expectData("deleteBlog", Self.deleteBlog, ["input": ["id": "b1"]])
            #expect(deleted == ["id": "b1", "name": "A", "website": "https://a.example"], "the old item")
            #expect(try await client.expectData("getBlog", #"{ getBlog(id: "b1") { id } }"#) == .null)
            let listed = try await client.expectData("listBlogs", "{ listBlogs { items { id } nextToken } }")
            #expect(listed["items"] == [["id": "b2"]], "a deleted item is not listed")
            let filtered = try await client.expectData("listBlogs", #"{ listBlogs(filter: {name: {eq: "A"}}) { items { id } } }"#)
            #expect(filtered["items"] == [])
            let parent = try await client.expectData("getPost", #"{ getPost(id: "p1") { blog { id } } }"#)
            #expect(parent["blog"] == .null, "a relation does not reach a deleted item")
            Self.expectConditionFailed(try await client.graphQL(Self.deleteBlog, ["input": ["id": "b1"]]), "deleteBlog")
            Self.expectConditionFailed(try await client.graphQL(Self.updateBlog, ["input": ["id": "b1", "name": "X"]]), "updateBlog")

            let again = try await client.expectData("createBlog", Self.createBlog, ["input": ["id": "b1", "name": "Reborn"]])
            #expect(again["name"] == "Reborn", "the key of a deleted item can be created again")
            #expect(try await client.expectData("getBlog", #"{ getBlog(id: "b1") { name website } }"#) == ["name": "Reborn", "website": nil])
            let children = try await client.expectData("getBlog", #"{ getBlog(id: "b1") { posts { items { id } } } }"#)
            #expect(children["posts"]["items"] == [["id": "p1"]])
        }
    }
}

/// `@auth` rules judge a plain API's reads and writes as a versioned one's.
@Suite struct PlainAPIAuthorizationTests {
    @Test func ownerRulesDecideWritesAndReads() async throws {
        let schema = try AmplifySchema.parse(source: """
            type Note @model @auth(rules: [{ allow: owner }, { allow: private, operations: [read] }]) { id: ID! text: String }
            """, file: "schema.graphql").servingConflictDetection(.none)
        let project = AmplifyProject(schema: schema, schemaFiles: ["<test schema>"])
        try await DeltaSyncTestServer.withServer(project: project, configure: {
            $0.authModes = APIAuthModes(defaultMode: .userPools, additionalModes: [.apiKey])
        }) { server in
            let alice = try await server.token(username: "alice", sub: "a1")
            let bob = try await server.token(username: "bob", sub: "b1")
            let created = try await server.graphQL(#"mutation { createNote(input: {id: "n1", text: "mine"}) { id owner } }"#, token: alice)
            #expect(created["data"]["createNote"]["owner"].stringValue?.hasSuffix("alice") == true, "the owner is filled in")
            let refused = try await server.graphQL(#"mutation { updateNote(input: {id: "n1", text: "bob's"}) { id } }"#, token: bob)
            #expect(refused["errors"][0]["errorType"] == "Unauthorized")
            let deleteRefused = try await server.graphQL(#"mutation { deleteNote(input: {id: "n1"}) { id } }"#, token: bob)
            #expect(deleteRefused["errors"][0]["errorType"] == "Unauthorized")
            #expect(try await server.graphQL(#"{ getNote(id: "n1") { text } }"#, token: bob)["data"]["getNote"]["text"] == "mine")
            let deleted = try await server.graphQL(#"mutation { deleteNote(input: {id: "n1"}) { id text } }"#, token: alice)
            #expect(deleted["data"]["deleteNote"] == ["id": "n1", "text": "mine"])
            #expect(try await server.graphQL("{ listNotes { items { id } } }", token: bob)["data"]["listNotes"]["items"] == [])
        }
    }
}

/// `"ConflictDetection": "NONE"` in a `ResolverConfig` entry: the API stays versioned and the
/// write applies whatever `_version` it carries.
@Suite struct VersionedWithoutDetectionTests {
    @Test func aStaleWriteAppliesAsSent() async throws {
        var project = try ExampleSchema.blogProject()
        project.sync = SyncConfiguration(projectHandler: .lastWriterWins)
        try await TestServer(project: project).withClient { client in
            let update = "mutation($i: UpdateBlogInput!) { updateBlog(input: $i) { name website _version } }"
            _ = try await client.expectData("createBlog", #"mutation { createBlog(input: {id: "b1", name: "A"}) { id } }"#)
            #expect(try await client.expectData("updateBlog", update, ["i": ["id": "b1", "name": "B", "_version": 1]])["_version"] == 2)
            let stale = try await client.expectData("updateBlog", update, ["i": ["id": "b1", "website": "https://c.example", "_version": 1]])
            #expect(stale == ["name": "B", "website": "https://c.example", "_version": 3], "applied, not rejected or merged")
            let delete = try await client.graphQL(#"mutation { deleteBlog(input: {id: "b1", _version: 1}) { _deleted _version } }"#)
            #expect(delete.data["deleteBlog"] == ["_deleted": true, "_version": 4])
        }
    }
}
