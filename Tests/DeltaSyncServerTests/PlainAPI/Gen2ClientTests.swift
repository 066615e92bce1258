import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncServer
import DeltaSyncTesting
import Foundation
import HTTPTypes
import Testing

/// The Gen 2 example schema (`references:` relations, a composite identifier) served as
/// `defineData` serves it, without conflict detection, answering the documents Gen 2's
/// `generateClient()` sends: anonymous operations as graphql-js prints them, the default
/// selection (scalars, no relations, no item `__typename`), custom selection sets, lazy loads
/// through filters, and subscriptions that always declare `$filter`.
@Suite struct Gen2ClientTests {
    static var schemaFile: String {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Examples/gen2/schema.graphql").path
    }

    static func project() throws -> AmplifyProject {
        try AmplifyProject.load(schemaFile: schemaFile).servingGen2Defaults()
    }

    // The documents, as the data client prints them (selection of the model's scalar fields).
    static let createBlog = "mutation($input: CreateBlogInput!) { createBlog(input: $input) { id name createdAt updatedAt } }"
    static let createPost = "mutation($input: CreatePostInput!) { createPost(input: $input) { id title status blogId createdAt updatedAt } }"
    static let updatePost = "mutation($input: UpdatePostInput!) { updatePost(input: $input) { id title status blogId createdAt updatedAt } }"
    static let deletePost = "mutation($input: DeletePostInput!) { deletePost(input: $input) { id title status blogId createdAt updatedAt } }"
    static let getPost = "query($id: ID!) { getPost(id: $id) { id title status blogId createdAt updatedAt } }"
    static let listPosts = """
        query($filter: ModelPostFilterInput,$limit: Int,$nextToken: String) { listPosts(filter: $filter,limit: $limit,nextToken: $nextToken) { items { id title status blogId createdAt updatedAt } nextToken __typename } }
        """
    /// `client.models.Blog.list({ selectionSet: ["id", "name", "posts.*"] })`: a hasMany is
    /// `items` without `nextToken`.
    static let listBlogsWithPosts = """
        query($filter: ModelBlogFilterInput,$limit: Int,$nextToken: String) { listBlogs(filter: $filter,limit: $limit,nextToken: $nextToken) { items { id name posts { items { id title status blogId createdAt updatedAt } } } nextToken __typename } }
        """
    static let onCreatePost = """
        subscription($filter: ModelSubscriptionPostFilterInput) { onCreatePost(filter: $filter) { id title status blogId createdAt updatedAt } }
        """
    static let onDeletePost = """
        subscription($filter: ModelSubscriptionPostFilterInput) { onDeletePost(filter: $filter) { id title status blogId createdAt updatedAt } }
        """

    @Test func modelOperationsAndRelationsByReference() async throws {
        try await TestServer(project: try Self.project()).withClient { client in
            _ = try await client.expectData("createBlog", Self.createBlog, ["input": ["id": "b1", "name": "Gen 2"]])
            for (id, title) in [("p1", "First"), ("p2", "Second")] {
                let post = try await client.expectData(
                    "createPost", Self.createPost, ["input": ["id": .string(id), "title": .string(title), "blogId": "b1", "status": "DRAFT"]])
                #expect(post["blogId"] == "b1" && post["createdAt"] == post["updatedAt"])
                #expect(post["__typename"] == .null, "not selected, not sent")
            }
            let page = try await client.expectData("listPosts", Self.listPosts, ["filter": ["status": ["eq": "DRAFT"]], "limit": 1])
            #expect(page["__typename"] == "ModelPostConnection")
            #expect(page["items"].arrayValue?.count == 1 && page["nextToken"].stringValue != nil)
            let rest = try await client.expectData(
                "listPosts", Self.listPosts, ["filter": ["status": ["eq": "DRAFT"]], "limit": 10, "nextToken": page["nextToken"]])
            #expect(rest["items"].arrayValue?.count == 1 && rest["nextToken"] == .null)

            let nested = try await client.expectData("listBlogs", Self.listBlogsWithPosts)
            #expect(Set(nested["items"][0]["posts"]["items"].arrayValue?.compactMap { $0["title"].stringValue } ?? []) == ["First", "Second"])
            // `post.blog()` and `blog.posts()`: a get by the reference and a filtered list.
            let lazy = try await client.expectData(
                "listPosts", Self.listPosts, ["filter": ["and": [["blogId": ["eq": "b1"]]]]])
            #expect(lazy["items"].arrayValue?.count == 2)
            let parent = try await client.expectData("getPost", #"query { getPost(id: "p1") { blog { name } } }"#)
            #expect(parent["blog"]["name"] == "Gen 2")

            // Gen 2 names an @index's query itself: `postsByStatusAndTitle`.
            let byStatus = try await client.expectData("postsByStatusAndTitle", """
                query($status: PostStatus!,$title: ModelStringKeyConditionInput,$sortDirection: ModelSortDirection) { postsByStatusAndTitle(status: $status,title: $title,sortDirection: $sortDirection) { items { title } nextToken } }
                """, ["status": "DRAFT", "title": ["beginsWith": "S"], "sortDirection": "DESC"])
            #expect(byStatus["items"] == [["title": "Second"]])
            let updated = try await client.expectData("updatePost", Self.updatePost, ["input": ["id": "p1", "status": "PUBLISHED"]])
            #expect(updated["status"] == "PUBLISHED" && updated["title"] == "First")
            let deleted = try await client.expectData("deletePost", Self.deletePost, ["input": ["id": "p2"]])
            #expect(deleted["title"] == "Second", "the deleted item as it was")
            #expect(try await client.expectData("getPost", Self.getPost, ["id": "p2"]) == .null)
        }
    }

    @Test func compositeIdentifiersAndHasOne() async throws {
        try await TestServer(project: try Self.project()).withClient { client in
            _ = try await client.expectData("createPage", """
                mutation($input: CreatePageInput!) { createPage(input: $input) { tenantId slug } }
                """, ["input": ["tenantId": "t1", "slug": "home", "body": "Hi"]])
            for heading in ["One", "Two"] {
                _ = try await client.expectData("createSection", """
                    mutation($input: CreateSectionInput!) { createSection(input: $input) { id } }
                    """, ["input": ["heading": .string(heading), "pageTenantId": "t1", "pageSlug": "home"]])
            }
            _ = try await client.expectData("createSection", """
                mutation($input: CreateSectionInput!) { createSection(input: $input) { id } }
                """, ["input": ["heading": "Elsewhere", "pageTenantId": "t1", "pageSlug": "about"]])
            let page = try await client.expectData("getPage", """
                query($tenantId: ID!,$slug: String!) { getPage(tenantId: $tenantId,slug: $slug) { body sections { items { heading page { slug } } } } }
                """, ["tenantId": "t1", "slug": "home"])
            #expect(Set(page["sections"]["items"].arrayValue?.compactMap { $0["heading"].stringValue } ?? []) == ["One", "Two"])
            #expect(page["sections"]["items"][0]["page"]["slug"] == "home")

            _ = try await client.expectData("createBlog", Self.createBlog, ["input": ["id": "b1", "name": "With a profile"]])
            _ = try await client.expectData("createBlogProfile", """
                mutation($input: CreateBlogProfileInput!) { createBlogProfile(input: $input) { id } }
                """, ["input": ["theme": "dark", "blogId": "b1"]])
            let blog = try await client.expectData("getBlog", #"query { getBlog(id: "b1") { profile { theme blog { name } } } }"#)
            #expect(blog["profile"]["theme"] == "dark" && blog["profile"]["blog"]["name"] == "With a profile")
        }
    }

    /// `observeQuery` and `onCreate` subscribe with `$filter` declared and `{}` or a filter as
    /// variables; a delete's event carries the item as it was.
    @Test func subscriptionsWithFilters() async throws {
        let server = try await TestServer(project: try Self.project()).server
        let running = try await server.start()
        do {
            try await Self.subscribe(running)
        } catch {
            await running.stop()
            throw error
        }
        await running.stop()
    }

    private static func subscribe(_ running: RunningServer) async throws {
        let client = RealtimeTestClient(
            url: "ws://127.0.0.1:\(running.port)/graphql", headers: [HTTPField.Name("x-api-key")!: TestServer.apiKey])
        _ = try await client.initialize()
        client.start(id: "1", query: Self.onCreatePost, variables: [:])
        client.start(id: "2", query: Self.onCreatePost, variables: ["filter": ["status": ["eq": "PUBLISHED"]]])
        client.start(id: "3", query: Self.onDeletePost, variables: [:])
        for _ in 0..<3 { _ = try await client.next("start_ack") }

        _ = try await LiveHTTP.graphQL(running.graphQLURL, Self.createPost, ["input": ["id": "p1", "title": "Draft", "status": "DRAFT"]])
        _ = try await LiveHTTP.graphQL(running.graphQLURL, Self.createPost, ["input": ["id": "p2", "title": "Out", "status": "PUBLISHED"]])
        _ = try await LiveHTTP.graphQL(running.graphQLURL, Self.deletePost, ["input": ["id": "p1"]])
        var received: [String: [String]] = [:]
        for _ in 0..<4 {
            let data = try await client.next("data")
            let payload = data["payload"]["data"]
            let item = payload["onCreatePost"].isNull ? payload["onDeletePost"] : payload["onCreatePost"]
            received[data["id"].stringValue ?? "", default: []].append(item["title"].stringValue ?? "")
        }
        #expect(received == ["1": ["Draft", "Out"], "2": ["Out"], "3": ["Draft"]])
        _ = await client.close()
    }
}
