import DeltaSyncCore
import Foundation
import Testing

/// Root list and sync pages are written by `ItemProjection` instead of the GraphQL executor;
/// a directive on `items` makes the server use the executor, so the two can be compared.
@Suite struct ItemProjectionTests {
    static func seed(_ client: TestServer.Client) async throws {
        _ = try await client.expectData(
            "createBlog", "mutation { createBlog(input: {id: \"b1\", name: \"Blog\", owner: \"a@b.co\"}) { id } }")
        for n in 0..<5 {
            let input: JSONValue = [
                "id": .string("p\(n)"), "blogID": n == 4 ? "missing-blog" : "b1", "title": .string("Title \(n)"),
                "rating": n == 2 ? nil : .int(n), "views": .double(Double(n) + 0.5), "featured": .bool(n % 2 == 0),
                "tags": n == 1 ? [] : ["x", .string("t\(n)")], "status": "PUBLISHED",
                "location": ["lat": 1.5, "lon": .double(Double(n)), "name": n == 3 ? nil : "Somewhere"],
                "metadata": #"{"k":[1,2]}"#, "expiresAt": 1_700_000_000, "publishDay": "2024-02-29",
                // The byBlog index (Blog.posts, postsByBlog) holds only posts with its sort key.
                "publishedAt": .string("2024-03-0\(n + 1)T00:00:00.000Z"),
            ]
            _ = try await client.expectData(
                "createPost", "mutation($i: CreatePostInput!) { createPost(input: $i) { id } }", ["i": input])
        }
    }

    static let selection = """
        __typename id title rating views featured tags status metadata expiresAt publishDay
        heading: title
        location { lat lon name __typename }
        blog { name owner __typename }
        ...meta
        ... on Post { body }
        """

    /// Without `blog`, items are written while the store reads them; with it, after.
    static let selectionWithoutRelations = selection.replacingOccurrences(of: "blog { name owner __typename }", with: "")

    @Test(arguments: [
        ("listPosts(limit: 3)", selection), ("syncPosts(limit: 3)", selection), ("postsByBlog(blogID: \"b1\")", selection),
        ("listPosts(limit: 3)", selectionWithoutRelations), ("syncPosts(limit: 3)", selectionWithoutRelations),
        ("postsByBlog(blogID: \"b1\")", selectionWithoutRelations),
    ])
    func projectionEqualsTheExecutor(field: String, selection: String) async throws {
        try await TestServer().withClient { client in
            try await Self.seed(client)
            let fragment = "fragment meta on Post { _version _deleted _lastChangedAt createdAt updatedAt }"
            let fast = try await client.graphQL("{ page: \(field) { items { \(selection) } nextToken } } \(fragment)")
            let slow = try await client.graphQL(
                "{ page: \(field) { items @include(if: true) { \(selection) } nextToken } } \(fragment)")
            #expect(fast.errors.isEmpty)
            #expect(fast.data["page"]["items"].arrayValue?.isEmpty == false)
            #expect(fast.data["page"]["items"] == slow.data["page"]["items"])
            #expect((fast.data["page"]["nextToken"] == .null) == (slow.data["page"]["nextToken"] == .null))
        }
    }

    /// A root mutation's result is completed by `ItemProjection` too: without the executor
    /// (the mutation shortcut), or inside it when an argument is written inline. A directive on
    /// the mutation field makes the executor complete it. Three equal items, one through each.
    @Test(arguments: ["createPost", "updatePost", "deletePost"])
    func mutationResultEqualsTheExecutor(mutation: String) async throws {
        try await TestServer().withClient { client in
            try await Self.seed(client)
            func input(_ id: String) -> JSONValue {
                switch mutation {
                case "createPost":
                    return [
                        "id": .string(id), "blogID": "b1", "title": "Made", "views": 2.5, "tags": ["x", "y"], "metadata": #"{"k":1}"#,
                        "location": ["lat": 1.5, "lon": 2], "expiresAt": 1_700_000_000, "publishDay": "2024-02-29",
                    ]
                case "updatePost": return ["id": .string(id), "title": "Changed", "views": 3.25, "rating": nil, "_version": 1]
                default: return ["id": .string(id), "_version": 1]
                }
            }
            let fragment = "fragment meta on Post { _version _deleted _lastChangedAt createdAt updatedAt }"
            let type = mutation.prefix(1).uppercased() + mutation.dropFirst() + "Input"
            func result(_ id: String, arguments: String = "input: $i", directive: String = "") async throws -> JSONValue {
                let reply = try await client.graphQL(
                    "mutation($i: \(type)!) { result: \(mutation)(\(arguments)) \(directive) { \(Self.selectionWithoutRelations) } } \(fragment)",
                    ["i": input(id)])
                #expect(reply.errors.isEmpty)
                var object = try #require(reply.data["result"].objectValue)
                #expect(object["id"] == .string(id))
                // What differs between the two items: the key and when they were written.
                for key in ["id", "_lastChangedAt", "createdAt", "updatedAt"] { object[key] = nil }
                return .object(object)
            }
            for id in ["q0", "q1", "q2"] where mutation != "createPost" {
                _ = try await client.expectData("createPost", "mutation($i: CreatePostInput!) { createPost(input: $i) { id } }", [
                    "i": ["id": .string(id), "blogID": "b1", "title": "Made", "rating": 4, "location": ["lat": 1.5, "lon": 2]],
                ])
            }
            let shortcut = try await result("q0")
            let projected = try await result("q1", arguments: "input: $i, condition: null")
            let executor = try await result("q2", directive: "@include(if: true)")
            #expect(shortcut["heading"] != .null)
            #expect(shortcut == executor)
            #expect(projected == executor)
        }
    }

    /// A stored item without a value for a non-null field (written under an older schema)
    /// is null in the page, with AppSync's error naming the field; the other items are intact.
    @Test(arguments: ["id title", "id title blog { name }"])
    func anItemMissingARequiredFieldIsNullWithAnError(selection: String) async throws {
        let server = try await TestServer()
        try await server.withClient { client in
            try await Self.seed(client)
            let post = server.server.project.schema.model(named: "Post")!
            try await server.server.itemStore.write { tx in
                try tx.put(post, ["id": "p9", "blogID": "b1", "status": "DRAFT", "_version": 1, "__typename": "Post"])
            }
            for field in ["listPosts", "syncPosts"] {
                let reply = try await client.graphQL("{ \(field) { items { \(selection) } } }")
                #expect(reply.errors.count == 1)
                #expect(
                    reply.firstError["message"]
                        == .string("Cannot return null for non-nullable type: 'String' within parent 'Post' (/\(field)/items/5/title)"))
                #expect(reply.firstError["path"] == [.string(field), "items", 5, "title"])
                let items = try #require(reply.data[field]["items"].arrayValue)
                #expect(items.count == 6)
                #expect(items[5] == .null)
                #expect(items[0]["title"] == "Title 0")
            }
        }
    }

    @Test func nestedConnectionsFallBackToTheExecutor() async throws {
        try await TestServer().withClient { client in
            try await Self.seed(client)
            let reply = try await client.graphQL("{ listBlogs { items { name posts(limit: 2) { items { id } } } } }")
            #expect(reply.errors.isEmpty)
            #expect(reply.data["listBlogs"]["items"][0]["posts"]["items"] == [["id": "p0"], ["id": "p1"]])
        }
    }
}
