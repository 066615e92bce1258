import DeltaSyncCore
import DeltaSyncSchema
import NIOConcurrencyHelpers
import Testing

@testable import DeltaSyncGraphQL

/// A query reads each related item once however many fields ask for it; a mutation reads
/// again, so a field after a write sees what was written.
@Suite struct RelatedReadsTests {
    static let schema = try! AmplifySchema.parse(
        source: """
            type Blog @model { id: ID! name: String! }
            type Tag @model { id: ID! name: String! }
            """, file: "related.graphql")

    @Test("fields that ask for one key at once share one read")
    func oneReadPerKey() async throws {
        let reads = RelatedReads()
        let blog = try #require(Self.schema.models.first { $0.name == "Blog" })
        let tag = try #require(Self.schema.models.first { $0.name == "Tag" })
        let count = NIOLockedValueBox([String: Int]())
        @Sendable func read(_ model: ModelSchema, _ id: String) async throws -> Item? {
            try await reads.item(model, key: ["id": .string(id)]) {
                count.withLockedValue { $0["\(model.name)/\(id)", default: 0] += 1 }
                return ["id": .string(id), "name": .string("\(model.name) \(id)")]
            }
        }
        let names = try await withThrowingTaskGroup(of: String?.self) { group in
            for n in 0..<200 {
                group.addTask { try await read(n % 2 == 0 ? blog : tag, n < 100 ? "a" : "b")?["name"]?.stringValue }
            }
            return try await group.reduce(into: [String?]()) { $0.append($1) }
        }
        #expect(Set(names) == ["Blog a", "Tag a", "Blog b", "Tag b"])
        #expect(count.withLockedValue { $0 } == ["Blog/a": 1, "Tag/a": 1, "Blog/b": 1, "Tag/b": 1])
    }

    @Test("a read that failed is read again by the next field")
    func failedReadIsNotKept() async throws {
        struct Unavailable: Error {}
        let reads = RelatedReads()
        let blog = try #require(Self.schema.models.first { $0.name == "Blog" })
        await #expect(throws: Unavailable.self) {
            try await reads.item(blog, key: ["id": "b1"]) { throw Unavailable() }
        }
        let found = try await reads.item(blog, key: ["id": "b1"]) { ["id": "b1", "name": "read again"] }
        #expect(found?["name"] == "read again")
        let absent = try await reads.item(blog, key: ["id": "b2"]) { nil }
        #expect(absent == nil)
        let stillAbsent = try await reads.item(blog, key: ["id": "b2"]) { ["id": "b2", "name": "not read"] }
        #expect(stillAbsent == nil, "an item that was not there stays absent for the rest of the query")
    }

    @Test("in one mutation request, a relation after an update reads the updated item")
    func mutationsReadAgain() async throws {
        try await TestServer().withClient { client in
            _ = try await client.expectData("createBlog", #"mutation { createBlog(input: {id: "b1", name: "Before"}) { id } }"#)
            let reply = try await client.graphQL(
                """
                mutation {
                  first: createPost(input: {id: "p1", blogID: "b1", title: "t", publishedAt: "2026-01-01T00:00:00Z"}) { blog { name } }
                  rename: updateBlog(input: {id: "b1", name: "After", _version: 1}) { name }
                  second: createPost(input: {id: "p2", blogID: "b1", title: "t", publishedAt: "2026-01-01T00:00:00Z"}) { blog { name } }
                }
                """)
            #expect(reply.errors.isEmpty, "\(reply.json.jsonText.prefix(400))")
            #expect(reply.data["first"]["blog"]["name"] == "Before")
            #expect(reply.data["second"]["blog"]["name"] == "After")
            let query = try await client.expectData(
                "listPosts", "{ listPosts { items { id blog { name } } } }")
            #expect(query["items"].arrayValue?.map { $0["blog"]["name"] } == ["After", "After"])
        }
    }

    @Test("in a query, the posts of several blogs each show their own blog, a deleted one as its tombstone")
    func eachPostShowsItsOwnBlog() async throws {
        try await TestServer().withClient { client in
            for blog in 0..<3 {
                _ = try await client.expectData(
                    "createBlog", "mutation($i: CreateBlogInput!) { createBlog(input: $i) { id } }",
                    ["i": ["id": .string("b\(blog)"), "name": .string("Blog \(blog)")]])
            }
            for post in 0..<12 {
                _ = try await client.expectData(
                    "createPost", "mutation($i: CreatePostInput!) { createPost(input: $i) { id } }",
                    ["i": ["id": .string("p\(post)"), "blogID": .string("b\(post % 3)"), "title": "t", "publishedAt": "2026-01-01T00:00:00Z"]])
            }
            _ = try await client.expectData("deleteBlog", #"mutation { deleteBlog(input: {id: "b2", _version: 1}) { id } }"#)
            // Projection writes the page (`listPosts`); the executor completes the aliased nested
            // connection's items (`@include` keeps them from projection).
            let reply = try await client.graphQL(
                """
                { listPosts(limit: 100) { items { id blog { id name _deleted } } }
                  getBlog(id: "b0") { posts { items @include(if: true) { id blog { name } } } } }
                """)
            let items = reply.data["listPosts"]["items"].arrayValue ?? []
            #expect(items.count == 12, "\(reply.json.jsonText.prefix(400))")
            for item in items {
                let post = Int(item["id"].stringValue?.dropFirst() ?? "") ?? -1
                #expect(item["blog"]["name"] == .string("Blog \(post % 3)"), "\(item)")
                // A versioned API shows tombstones, as AppSync's does.
                #expect(item["blog"]["_deleted"] == (post % 3 == 2 ? true : nil), "\(item)")
            }
            let nested = reply.data["getBlog"]["posts"]["items"].arrayValue ?? []
            #expect(nested.count == 4 && nested.allSatisfy { $0["blog"]["name"] == "Blog 0" }, "\(reply.json.jsonText.prefix(400))")
        }
    }
}
