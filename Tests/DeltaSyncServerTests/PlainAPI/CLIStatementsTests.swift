import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncServer
import DeltaSyncTesting
import Foundation
import HTTPTypes
import Testing

/// The documents the Amplify CLI's statement generator writes for the API category (`amplify
/// codegen`, `ampx generate graphql-client-code`) at its default depth of 2: one named operation
/// per root field, `__typename` on every object, a hasMany at the depth limit reduced to
/// `{ nextToken __typename }`, against the blog API without conflict detection.
@Suite struct CLIStatementsTests {
    static let postFields = """
        id blogID title body status rating views featured tags
        location { lat lon name __typename }
        metadata publishedAt publishDay readingTime expiresAt authorPhone authorIp
        """
    static let createBlog = """
        mutation CreateBlog($input: CreateBlogInput!, $condition: ModelBlogConditionInput) {
          createBlog(input: $input, condition: $condition) {
            id name owner website
            posts { nextToken __typename }
            createdAt updatedAt __typename
          }
        }
        """
    static let createPost = """
        mutation CreatePost($input: CreatePostInput!, $condition: ModelPostConditionInput) {
          createPost(input: $input, condition: $condition) {
            \(postFields)
            blog { id name owner website createdAt updatedAt __typename }
            comments { nextToken __typename }
            labels { nextToken __typename }
            createdAt updatedAt __typename
          }
        }
        """
    static let createComment = """
        mutation CreateComment($input: CreateCommentInput!, $condition: ModelCommentConditionInput) {
          createComment(input: $input, condition: $condition) {
            id content
            post { \(postFields) createdAt updatedAt __typename }
            createdAt updatedAt postCommentsId __typename
          }
        }
        """
    static let getBlog = """
        query GetBlog($id: ID!) {
          getBlog(id: $id) {
            id name owner website
            posts { nextToken __typename }
            createdAt updatedAt __typename
          }
        }
        """
    static let listPosts = """
        query ListPosts($filter: ModelPostFilterInput, $limit: Int, $nextToken: String) {
          listPosts(filter: $filter, limit: $limit, nextToken: $nextToken) {
            items { \(postFields) createdAt updatedAt __typename }
            nextToken __typename
          }
        }
        """
    static let postsByBlog = """
        query PostsByBlog($blogID: ID!, $publishedAt: ModelStringKeyConditionInput, $sortDirection: ModelSortDirection, $filter: ModelPostFilterInput, $limit: Int, $nextToken: String) {
          postsByBlog(blogID: $blogID, publishedAt: $publishedAt, sortDirection: $sortDirection, filter: $filter, limit: $limit, nextToken: $nextToken) {
            items { id title publishedAt __typename }
            nextToken __typename
          }
        }
        """
    static let onCreatePost = """
        subscription OnCreatePost($filter: ModelSubscriptionPostFilterInput) {
          onCreatePost(filter: $filter) {
            \(postFields)
            blog { id name owner website createdAt updatedAt __typename }
            comments { nextToken __typename }
            labels { nextToken __typename }
            createdAt updatedAt __typename
          }
        }
        """

    static func project() throws -> AmplifyProject {
        try ExampleSchema.blogProject().servingConflictDetection(.none, because: "the API category")
    }

    @Test func statementsAtDepthTwoResolveRelations() async throws {
        try await TestServer(project: try Self.project()).withClient { client in
            let blog = try await client.expectData("createBlog", Self.createBlog, ["input": ["id": "b1", "name": "Statements"]])
            #expect(blog["posts"] == ["nextToken": nil, "__typename": "ModelPostConnection"])
            #expect(blog["__typename"] == "Blog")
            let post = try await client.expectData(
                "createPost", Self.createPost,
                ["input": ["id": "p1", "blogID": "b1", "title": "First", "publishedAt": "2026-01-02T00:00:00.000Z",
                           "location": ["lat": 1.5, "lon": 2, "name": "Here"]]])
            #expect(post["blog"]["name"] == "Statements" && post["blog"]["__typename"] == "Blog", "a mutation result resolves its relation")
            #expect(post["location"]["__typename"] == "Location")
            #expect(post["comments"]["__typename"] == "ModelCommentConnection")
            let comment = try await client.expectData("createComment", Self.createComment, ["input": ["content": "Nice", "postCommentsId": "p1"]])
            #expect(comment["post"]["title"] == "First" && comment["postCommentsId"] == "p1")

            let list = try await client.expectData("listPosts", Self.listPosts, ["filter": ["title": ["beginsWith": "Fi"]], "limit": 10])
            #expect(list["items"].arrayValue?.map { $0["id"] } == ["p1"])
            #expect(list["__typename"] == "ModelPostConnection")
            let byBlog = try await client.expectData(
                "postsByBlog", Self.postsByBlog,
                ["blogID": "b1", "publishedAt": ["beginsWith": "2026-01"], "sortDirection": "DESC"])
            #expect(byBlog["items"] == [["id": "p1", "title": "First", "publishedAt": "2026-01-02T00:00:00.000Z", "__typename": "Post"]])
            let got = try await client.expectData("getBlog", Self.getBlog, ["id": "b1"])
            #expect(got["name"] == "Statements")
        }
    }

    /// The generated subscription selects what the generated mutation does: its payload carries
    /// the related blog.
    @Test func subscriptionPayloadsCarryRelations() async throws {
        let server = try await TestServer(project: try Self.project()).server
        let running = try await server.start()
        do {
            let client = RealtimeTestClient(
                url: "ws://127.0.0.1:\(running.port)/graphql", headers: [HTTPField.Name("x-api-key")!: TestServer.apiKey])
            _ = try await client.initialize()
            client.start(id: "1", query: Self.onCreatePost, variables: ["filter": ["blogID": ["eq": "b1"]]])
            _ = try await client.next("start_ack")
            _ = try await LiveHTTP.graphQL(running.graphQLURL, Self.createBlog, ["input": ["id": "b1", "name": "Live"]])
            _ = try await LiveHTTP.graphQL(running.graphQLURL, Self.createPost, ["input": ["id": "p9", "blogID": "b9", "title": "Elsewhere"]])
            _ = try await LiveHTTP.graphQL(running.graphQLURL, Self.createPost, ["input": ["id": "p1", "blogID": "b1", "title": "Here"]])
            let event = try await client.next("data")["payload"]["data"]["onCreatePost"]
            #expect(event["id"] == "p1", "the filter kept the other blog's post out")
            #expect(event["blog"] == ["id": "b1", "name": "Live", "owner": nil, "website": nil,
                                      "createdAt": event["blog"]["createdAt"], "updatedAt": event["blog"]["updatedAt"], "__typename": "Blog"])
            #expect(event["blog"]["createdAt"].stringValue != nil)
            _ = await client.close()
        } catch {
            await running.stop()
            throw error
        }
        await running.stop()
    }
}
