import DeltaSyncCore
import DeltaSyncServer
import Foundation
import Testing

/// Input at the edges of what the store and the GraphQL scalars hold: a NUL in a key, integers
/// past 2^53 and past 64 bits. Each is either kept exactly or refused, never changed, and
/// never stops the server.
@Suite struct InputIntegrityTests {
    static let createPost = "mutation($i: CreatePostInput!) { createPost(input: $i) { id title expiresAt rating _version } }"
    static let updatePost = "mutation($i: UpdatePostInput!) { updatePost(input: $i) { id title _version } }"
    static let deletePost = "mutation($i: DeletePostInput!) { deletePost(input: $i) { id _deleted } }"
    static let getPost = "query($id: ID!) { getPost(id: $id) { id title _version _deleted } }"

    // MARK: - NUL

    @Test("an id with a NUL after another item's id reaches no item: update, delete and create are refused")
    func nulInKeyIsRefused() async throws {
        try await TestServer().withClient { client in
            _ = try await client.expectData("createPost", Self.createPost, ["i": ["id": "victim", "blogID": "b", "title": "Mine"]])

            let update = try await client.graphQL(Self.updatePost, ["i": ["id": "victim\u{0}anything", "_version": 1, "title": "X"]])
            #expect(update.firstError["errorType"] == "ValidationException", "\(update.json.jsonText)")
            #expect(update.firstError["message"].stringValue?.contains("NUL") == true)
            let delete = try await client.graphQL(Self.deletePost, ["i": ["id": "victim\u{0}zzz", "_version": 1]])
            #expect(delete.firstError["errorType"] == "ValidationException")
            let victim = try await client.expectData("getPost", Self.getPost, ["id": "victim"])
            #expect(victim == ["id": "victim", "title": "Mine", "_version": 1, "_deleted": nil], "untouched")

            let create = try await client.graphQL(Self.createPost, ["i": ["id": "nul\u{0}a", "blogID": "b", "title": "t"]])
            #expect(create.firstError["errorType"] == "ValidationException")
            let get = try await client.graphQL(Self.getPost, ["id": "nul\u{0}a"])
            #expect(get.firstError["errorType"] == "ValidationException", "a lookup is refused, not answered for `nul`")
            let indexed = try await client.graphQL(Self.createPost, ["i": ["id": "p2", "blogID": "b\u{0}x", "title": "t"]])
            #expect(indexed.firstError["errorType"] == "ValidationException", "index fields are keys too")
            let query = try await client.graphQL(
                "query($b: ID!) { postsByBlog(blogID: $b) { items { id } } }", ["b": "b\u{0}x"])
            #expect(query.firstError["errorType"] == "ValidationException")

            let listed = try await client.expectData("listPosts", "{ listPosts { items { id } } }")
            #expect(listed["items"] == [["id": "victim"]], "nothing was created")
        }
    }

    @Test("PostgreSQL cannot store a NUL in text: the mutation is refused saying so, nothing is written",
          .enabled(if: TestStore.isPostgres))
    func nulInTextIsRefusedOnPostgreSQL() async throws {
        try await TestServer().withClient { client in
            let reply = try await client.graphQL(Self.createPost, ["i": ["id": "p1", "blogID": "b", "title": "a\u{0}b"]])
            #expect(reply.firstError["errorType"] == "ValidationException")
            #expect(reply.firstError["message"].stringValue?.contains("NUL") == true)
            #expect(try await client.graphQL(Self.getPost, ["id": "p1"]).data["getPost"] == .null)
        }
    }

    @Test("text with a NUL in other fields is stored, read and filtered byte for byte", .enabled(if: !TestStore.isPostgres))
    func nulInTextRoundTrips() async throws {
        try await TestServer().withClient { client in
            for (id, title) in [("p1", "a\u{0}b"), ("p2", "a"), ("p3", "a\u{0}"), ("p4", "ab")] {
                _ = try await client.expectData("createPost", Self.createPost, ["i": ["id": .string(id), "blogID": "b", "title": .string(title)]])
            }
            let stored = try await client.expectData("getPost", Self.getPost, ["id": "p1"])
            #expect(stored["title"] == "a\u{0}b")

            let list = "query($f: ModelPostFilterInput) { listPosts(filter: $f) { items { id } } }"
            func ids(_ filter: JSONValue) async throws -> Set<String> {
                let items = try await client.expectData("listPosts", list, ["f": filter])["items"].arrayValue ?? []
                return Set(items.compactMap { $0["id"].stringValue })
            }
            #expect(try await ids(["title": ["eq": "a\u{0}b"]]) == ["p1"])
            #expect(try await ids(["title": ["ne": "a\u{0}b"]]) == ["p2", "p3", "p4"])
            #expect(try await ids(["title": ["beginsWith": "a\u{0}"]]) == ["p1", "p3"])
            #expect(try await ids(["title": ["gt": "a\u{0}"]]) == ["p1", "p4"])
            #expect(try await ids(["title": ["between": ["a\u{0}", "a\u{0}b"]]]) == ["p1", "p3"])
        }
    }

    // MARK: - Integers

    @Test("AWSTimestamp values past 2^53 are stored exactly, from variables and literals")
    func timestampsAreExact() async throws {
        try await TestServer().withClient { client in
            let fromVariable = try await client.expectData(
                "createPost", Self.createPost, ["i": ["blogID": "b", "title": "t", "expiresAt": 9_007_199_254_740_993]])
            #expect(fromVariable["expiresAt"] == 9_007_199_254_740_993)
            let fromLiteral = try await client.expectData(
                "createPost", #"mutation { createPost(input: {blogID: "b", title: "t", expiresAt: 1700000000123456789}) { expiresAt } }"#)
            #expect(fromLiteral["expiresAt"] == 1_700_000_000_123_456_789)
            let largest = try await client.expectData(
                "createPost", Self.createPost, ["i": ["blogID": "b", "title": "t", "expiresAt": .int(Int.max)]])
            #expect(largest["expiresAt"] == .int(Int.max))
            let read = try await client.expectData(
                "getPost", "query($id: ID!) { getPost(id: $id) { expiresAt } }", ["id": fromVariable["id"]])
            #expect(read["expiresAt"] == 9_007_199_254_740_993)
        }
    }

    @Test("integers outside 64 bits or not whole are validation errors, and the server keeps serving", arguments: [
        #"{"i": {"blogID": "b", "title": "t", "expiresAt": -9223372036854775809}}"#,
        #"{"i": {"blogID": "b", "title": "t", "expiresAt": 9223372036854775808}}"#,
        #"{"i": {"blogID": "b", "title": "t", "expiresAt": 1e30}}"#,
        #"{"i": {"blogID": "b", "title": "t", "expiresAt": 1.5}}"#,
        #"{"i": {"blogID": "b", "title": "t", "rating": 1.5}}"#,
        #"{"i": {"blogID": "b", "title": "t", "rating": 2147483648}}"#,
        #"{"i": {"blogID": "b", "title": "t", "featured": 1}}"#,
    ])
    func outOfRangeVariablesAreRefused(variables: String) async throws {
        try await TestServer().withClient { client in
            let body = #"{"query": "mutation($i: CreatePostInput!) { createPost(input: $i) { id } }", "variables": "# + variables + "}"
            let reply = try await client.post(body)
            #expect(reply.status == .ok)
            #expect(reply.data["createPost"] == .null)
            #expect(reply.firstError["message"].stringValue?.hasPrefix("Validation error") == true, "\(reply.json.jsonText)")
            let listed = try await client.expectData("listPosts", "{ listPosts { items { id } } }")
            #expect(listed["items"] == [], "nothing was stored")
        }
    }

    @Test("sync and list arguments at the 64-bit edge are answered, not fatal", arguments: [
        "{ syncPosts(lastSync: 9223372036854775807) { items { id } startedAt } }",
        "{ syncPosts(lastSync: -9223372036854775808) { items { id } startedAt } }",
    ])
    func extremeLastSyncIsAnswered(query: String) async throws {
        try await TestServer().withClient { client in
            _ = try await client.expectData("createPost", Self.createPost, ["i": ["id": "p1", "blogID": "b", "title": "t"]])
            let reply = try await client.graphQL(query)
            #expect(reply.errors.isEmpty, "\(reply.json.jsonText)")
            #expect(reply.data["syncPosts"]["startedAt"].intValue != nil)
        }
    }

    @Test("lastSync, limit and _version that no integer type holds are refused", arguments: [
        (#"query($t: AWSTimestamp) { syncPosts(lastSync: $t) { startedAt } }"#, #"{"t": 1e19}"#),
        (#"query($t: AWSTimestamp) { syncPosts(lastSync: $t) { startedAt } }"#, #"{"t": -1e19}"#),
        (#"query($t: AWSTimestamp) { syncPosts(lastSync: $t) { startedAt } }"#, #"{"t": 1e300}"#),
        ("{ syncPosts(lastSync: 9223372036854775808) { startedAt } }", "{}"),
        ("{ syncPosts(lastSync: -9223372036854775809) { startedAt } }", "{}"),
        (#"query($l: Int) { listPosts(limit: $l) { items { id } } }"#, #"{"l": 1e19}"#),
        ("{ listPosts(limit: 2147483648) { items { id } } }", "{}"),
        ("{ listPosts(limit: 9223372036854775807) { items { id } } }", "{}"),
        (Self.updatePost, #"{"i": {"id": "p1", "_version": 1e19}}"#),
        (Self.updatePost, #"{"i": {"id": "p1", "_version": 1.5}}"#),
    ])
    func unrepresentableIntegersAreRefused(query: String, variables: String) async throws {
        try await TestServer().withClient { client in
            _ = try await client.expectData("createPost", Self.createPost, ["i": ["id": "p1", "blogID": "b", "title": "t"]])
            let body: JSONValue = ["query": .string(query)]
            let text = String(body.jsonText.dropLast()) + #", "variables": "# + variables + "}"
            let reply = try await client.post(text)
            #expect(reply.status == .ok)
            #expect(reply.firstError["message"].stringValue?.hasPrefix("Validation error") == true, "\(reply.json.jsonText)")
            let post = try await client.expectData("getPost", Self.getPost, ["id": "p1"])
            #expect(post["_version"] == 1, "the server still answers and nothing changed")
        }
    }
}
