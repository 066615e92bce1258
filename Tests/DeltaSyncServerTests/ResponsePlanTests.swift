import DeltaSyncCore
import Foundation
import Testing

/// A request runs its resolvers once, whatever happens to the fields around them: an error
/// beside a projected page, or an item projection cannot write plainly.
@Suite struct ResponsePlanTests {
    static let seedPost = "mutation($i: CreatePostInput!) { createPost(input: $i) { id } }"

    static func startedAt(_ client: TestServer.Client) async throws -> Int {
        let reply = try await client.graphQL("{ syncPosts(limit: 1) { startedAt } }")
        return try #require(reply.data["syncPosts"]["startedAt"].intValue)
    }

    /// Each sync page takes one stamp of the change clock, which stays still while the wall
    /// clock does: a second run of the request would show as a skipped stamp.
    @Test func aSyncPageBesideAFailingFieldStampsTheClockOnce() async throws {
        let clock = ManualClock()
        try await TestServer(configure: { $0.clock = { clock.now } }).withClient { client in
            for n in 0..<3 {
                _ = try await client.expectData("createPost", Self.seedPost, ["i": ["id": .string("p\(n)"), "blogID": "b", "title": "t"]])
            }
            let before = try await Self.startedAt(client)
            let reply = try await client.explained(
                "{ page: syncPosts(limit: 10) { items { id } startedAt } bad: listPosts(limit: 0) { items { id } } }")
            #expect(reply.errors.count == 1)
            #expect(reply.firstError["path"] == ["bad"])
            #expect(reply.firstError["errorType"] == "InvalidArgumentException")
            #expect(reply.data["page"]["items"].arrayValue?.map { $0["id"] } == ["p0", "p1", "p2"])
            #expect(reply.data["page"]["startedAt"] == .int(before + 1))
            #expect(reply.json["extensions"]["deltasync"]["plans"].arrayValue?.count == 1, "one plan: the page was read once")
            #expect(try await Self.startedAt(client) == before + 2)
        }
    }

    /// A related object lacking a non-null field: AppSync's error for the field, the related
    /// object null (the relation is nullable), the item and the page intact.
    @Test func aNullInARelatedObjectNullsTheRelationOnly() async throws {
        let server = try await TestServer()
        try await server.withClient { client in
            let blog = server.server.project.schema.model(named: "Blog")!
            try await server.server.itemStore.write { tx in
                try tx.put(blog, ["id": "b0", "_version": 1, "__typename": "Blog"])
            }
            _ = try await client.expectData("createPost", Self.seedPost, ["i": ["id": "p0", "blogID": "b0", "title": "t"]])
            for field in ["listPosts", "syncPosts"] {
                let reply = try await client.graphQL("{ \(field) { items { id blog { id name } } } }")
                #expect(reply.errors.count == 1)
                #expect(
                    reply.firstError["message"]
                        == .string("Cannot return null for non-nullable type: 'String' within parent 'Blog' (/\(field)/items/0/blog/name)"))
                #expect(reply.firstError["path"] == [.string(field), "items", 0, "blog", "name"])
                #expect(reply.data[field]["items"] == [["id": "p0", "blog": nil]])
            }
        }
    }

    /// A non-model object lacking a non-null field, in a page and in a `get`.
    @Test func aNullInANonModelObjectNullsTheObject() async throws {
        let server = try await TestServer()
        try await server.withClient { client in
            let post = server.server.project.schema.model(named: "Post")!
            try await server.server.itemStore.write { tx in
                try tx.put(post, [
                    "id": "p0", "blogID": "b", "title": "t", "status": "DRAFT", "location": ["lon": 2, "name": "n"],
                    "_version": 1, "__typename": "Post",
                ])
            }
            let page = try await client.graphQL("{ listPosts { items { id location { lat lon name } } } }")
            #expect(page.errors.count == 1)
            #expect(
                page.firstError["message"]
                    == "Cannot return null for non-nullable type: 'Float' within parent 'Location' (/listPosts/items/0/location/lat)")
            #expect(page.firstError["path"] == ["listPosts", "items", 0, "location", "lat"])
            #expect(page.data["listPosts"]["items"] == [["id": "p0", "location": nil]])

            let get = try await client.graphQL("{ getPost(id: \"p0\") { id location { lon name } } }")
            #expect(get.errors.isEmpty)
            #expect(get.data["getPost"] == ["id": "p0", "location": ["lon": 2, "name": "n"]])
        }
    }
}

extension ResponsePlanTests {
    /// An `operationName` that names no operation of the document runs nothing, even when the
    /// document holds a single mutation the server could run without the executor.
    @Test func anUnknownOperationNameRunsNothing() async throws {
        try await TestServer().withClient { client in
            let reply = try await client.post(
                #"{"query": "mutation Make($i: CreatePostInput!) { createPost(input: $i) { id } }", "operationName": "Other", "variables": {"i": {"id": "p0", "blogID": "b", "title": "t"}}}"#)
            #expect(reply.data == .null)
            #expect(reply.errors.count == 1)
            let list = try await client.graphQL("{ listPosts { items { id } } }")
            #expect(list.data["listPosts"]["items"] == [])
        }
    }
}
