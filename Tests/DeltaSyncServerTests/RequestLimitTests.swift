import DeltaSyncCore
import DeltaSyncServer
import Foundation
import Testing

/// Documents and inputs that would overflow the stack, or cost minutes of CPU, are refused with
/// a validation error before the GraphQL library or SQLite sees them, and the server keeps
/// answering.
@Suite struct RequestLimitTests {
    static func nested(_ open: String, _ inner: String, _ close: String, _ count: Int) -> String {
        String(repeating: open, count: count) + inner + String(repeating: close, count: count)
    }

    static let hostileDocuments: [(String, String)] = [
        ("selection sets", "{" + nested("a{", "b", "}", 2_594) + "}"),
        ("a nested list literal", "{ getPost(id: " + nested("[", "\"x\"", "]", 7_000) + ") { id } }"),
        ("a nested object literal", "{ listPosts(filter: " + nested("{not: ", "{rating: {eq: 1}}", "}", 6_000) + ") { items { id } } }"),
        ("a filter of nested ands", "{ listPosts(filter: " + nested("{and: [", "{rating: {eq: 1}}", "]}", 5_000) + ") { items { id } } }"),
        ("introspection types", "{ __type(name: \"Post\") { " + nested("ofType { ", "name", " }", 5_000) + " } }"),
        ("a chain of fragments",
            "{ listPosts { items { ...F0 } } }\n"
            + (0..<10_000).map { "fragment F\($0) on Post { id ...F\($0 + 1) }" }.joined(separator: "\n")
            + "\nfragment F10000 on Post { id }"),
        ("many operations", (0..<20_000).map { "query Q\($0) { listPosts { items { id } } }" }.joined(separator: "\n")),
        ("many variables", "query(" + (0..<10_000).map { "$v\($0): Int" }.joined(separator: ", ") + ") { listPosts { items { id } } }"),
        ("many directives", "{ listPosts { items { id" + String(repeating: " @include(if: true)", count: 10_000) + " } } }"),
        ("a long name", "{ listPosts { items { " + String(repeating: "titleX", count: 5_000) + " } } }"),
        ("many selections", "{ listPosts { items { " + String(repeating: "id title ", count: 3_000) + "} } }"),
        ("60,000 aliases (660,000 tokens)",
            "{ " + (0..<60_000).map { "a\($0): getPost(id: \"p1\") { id }" }.joined(separator: " ") + " }"),
        ("an or of 20,000 literal clauses",
            "{ listPosts(filter: {or: [" + Array(repeating: "{rating: {eq: 1}}", count: 20_000).joined(separator: ", ") + "]}) { items { id } } }"),
    ]

    @Test("a hostile document is a validation error, and the server answers the next request", arguments: hostileDocuments.map(\.0))
    func hostileDocumentIsRefused(name: String) async throws {
        let query = Self.hostileDocuments.first { $0.0 == name }!.1
        try await TestServer().withClient { client in
            let reply = try await client.graphQL(query)
            #expect(reply.status == .ok)
            #expect(reply.data == .null)
            let message = reply.firstError["message"].stringValue ?? ""
            #expect(message.hasPrefix("Validation error"), "\(message.prefix(300))")
            let after = try await client.expectData("listPosts", "{ listPosts { items { id } } }")
            #expect(after["items"] == [])
        }
    }

    @Test("documents as deep as real clients send still run")
    func ordinaryDepthRuns() async throws {
        try await TestServer().withClient { client in
            let filter = Self.nested("{and: [", "{rating: {eq: 1}}", "]}", 8)
            let reply = try await client.graphQL(
                "{ listPosts(filter: \(filter)) { items { id blog { id posts { items { id comments { items { id } } } } } } } }")
            #expect(reply.errors.isEmpty, "\(reply.json.jsonText)")
        }
    }

    /// A filter literal as JSON: its field names quoted.
    static func json(_ literal: String) -> String {
        ["not", "or", "rating", "eq"].reduce(literal) { $0.replacingOccurrences(of: "\($1):", with: "\"\($1)\":") }
    }

    static let largeFilters: [String: String] = [
        "45 nested nots": nested("{not: ", "{rating: {eq: 1}}", "}", 45),
        "an or of 999 clauses": "{or: [" + Array(repeating: "{rating: {eq: 1}}", count: 999).joined(separator: ", ") + "]}",
        // Counted before GraphQL coerces the variable (which took 19 s of CPU for this one).
        "an or of 100,000 clauses": "{or: [" + Array(repeating: "{rating: {eq: 1}}", count: 100_000).joined(separator: ", ") + "]}",
    ]

    @Test("filters past the filter limits are refused with a clear error instead of SQLite's", arguments: largeFilters.keys.sorted())
    func largeFiltersAreRefused(name: String) async throws {
        let filter = Self.largeFilters[name]!
        try await TestServer().withClient { client in
            // As a variable: written in the document, the clauses count against its value limit.
            let reply = try await client.graphQL(
                "query($f: ModelPostFilterInput) { listPosts(filter: $f) { items { id } } }", ["f": try JSONValue(parsing: Self.json(filter))])
            #expect(reply.firstError["errorType"] == "InvalidArgumentException", "\(reply.json.jsonText.prefix(300))")
            let message = reply.firstError["message"].stringValue ?? ""
            #expect(!message.contains("SQL") && !message.contains("SELECT"))
            // A filter variable is counted before the query runs: no field was resolved.
            #expect(reply.data == .null, "\(reply.json.jsonText.prefix(300))")
        }
    }

    @Test("a condition past the filter limits is refused before the mutation runs, and nothing is written")
    func largeConditionIsRefused() async throws {
        try await TestServer().withClient { client in
            let condition: JSONValue = ["or": .array(Array(repeating: ["rating": ["eq": 1]], count: 100_000))]
            let reply = try await client.graphQL(
                "mutation($i: CreatePostInput!, $c: ModelPostConditionInput) { createPost(input: $i, condition: $c) { id } }",
                ["i": ["id": "p1", "blogID": "b", "title": "t"], "c": condition])
            #expect(reply.firstError["errorType"] == "InvalidArgumentException")
            #expect(reply.firstError["message"].stringValue?.contains("more than 300 conditions") == true)
            #expect(reply.data == .null)
            let stored = try await client.expectData("listPosts", "{ listPosts { items { id } } }")
            #expect(stored["items"] == [])
        }
    }

    @Test("a list limit past the page size returns one page and a nextToken")
    func listLimitIsBounded() async throws {
        try await TestServer(configure: { $0.maxPageSize = 3 }).withClient { client in
            for i in 0..<5 {
                _ = try await client.expectData(
                    "createPost", "mutation($i: CreatePostInput!) { createPost(input: $i) { id } }",
                    ["i": ["id": .string("p\(i)"), "blogID": "b", "title": "t"]])
            }
            let page = try await client.expectData("listPosts", "{ listPosts(limit: 2147483647) { items { id } nextToken } }")
            #expect(page["items"].arrayValue?.count == 3)
            #expect(page["nextToken"].stringValue != nil)
        }
    }
}

/// One request's resolvers, items, response size and time are bounded; the request gets an
/// AppSync-shaped error and the server goes on serving.
@Suite struct ExecutionLimitTests {
    static func seedBlog(_ client: TestServer.Client, posts: Int) async throws {
        _ = try await client.expectData("createBlog", #"mutation { createBlog(input: {id: "b1", name: "B"}) { id } }"#)
        for i in 0..<posts {
            _ = try await client.expectData(
                "createPost", "mutation($i: CreatePostInput!) { createPost(input: $i) { id } }",
                ["i": ["id": .string("p\(i)"), "blogID": "b1", "title": "t", "publishedAt": "2026-01-01T00:00:00Z"]])
        }
    }

    @Test("nested connections that fan out stop at the resolver limit")
    func resolverLimit() async throws {
        try await TestServer(configure: { $0.executionLimits.maxResolvers = 50 }).withClient { client in
            try await Self.seedBlog(client, posts: 10)
            let fanOut = """
                { getBlog(id: "b1") { posts(limit: 100) { items { blog { posts(limit: 100) { items { blog { posts(limit: 100) { items { id } } } } } } } } } }
                """
            let reply = try await client.graphQL(fanOut)
            #expect(reply.errors.contains { $0["errorType"] == "LimitExceededError" }, "\(reply.json.jsonText.prefix(400))")
            let small = try await client.expectData("getBlog", #"{ getBlog(id: "b1") { posts { items { id } } } }"#)
            #expect(small["posts"]["items"].arrayValue?.count == 10, "a request within the limit is served")
        }
    }

    @Test("every field past the limit has its own error, placed at the field's line and column")
    func limitErrorsArePlaced() async throws {
        try await TestServer(configure: { $0.executionLimits.maxResolvers = 50 }).withClient { client in
            try await Self.seedBlog(client, posts: 10)
            let lines = [
                #"{ getBlog(id: "b1") {"#,
                "    posts(limit: 100) { items { blog {",
                "      posts(limit: 100) { items { blog {",
                "        posts(limit: 100) { items { id } } } } } } } } } }",
            ]
            let reply = try await client.graphQL(lines.joined(separator: "\n"))
            let limited = reply.errors.filter { $0["errorType"] == "LimitExceededError" }
            #expect(limited.count > 10, "\(reply.json.jsonText.prefix(400))")
            for error in limited {
                let path = error["path"].arrayValue?.compactMap(\.stringValue) ?? []
                let field = try #require(path.last)
                // Each level of `posts` (and the `blog` beside it) is one line further down.
                let line = path.filter { $0 == "posts" }.count + 1
                let text = lines[line - 1]
                let column = try #require(text.range(of: field == "posts" ? "posts(" : "blog {")).lowerBound
                let expected: JSONValue = [["line": .int(line), "column": .int(text.distance(from: text.startIndex, to: column) + 1), "sourceName": nil]]
                #expect(error["locations"] == expected, "\(error)")
            }
            #expect(Set(limited.map { $0["path"] }).count == limited.count, "one error a field")
        }
    }

    @Test("aliases of large lists stop at the item limit")
    func itemLimit() async throws {
        try await TestServer(configure: { $0.executionLimits.maxItems = 2_500 }).withClient { client in
            try await Self.seedBlog(client, posts: 10)
            let aliases = (0..<20).map { "a\($0): listPosts(limit: 1000) { items { id } }" }.joined(separator: " ")
            let reply = try await client.graphQL("{ \(aliases) }")
            #expect(reply.errors.contains { $0["errorType"] == "LimitExceededError" }, "\(reply.json.jsonText.prefix(400))")
            let listed = try await client.expectData("listPosts", "{ listPosts { items { id } } }")
            #expect(listed["items"].arrayValue?.count == 10)
        }
    }

    @Test("a response over the size limit is replaced by an error")
    func responseSizeLimit() async throws {
        try await TestServer(configure: { $0.executionLimits.maxResponseBytes = 300 }).withClient { client in
            try await Self.seedBlog(client, posts: 10)
            let reply = try await client.graphQL("{ listPosts { items { id title blogID status _version } } }")
            #expect(reply.data == .null)
            #expect(reply.firstError["errorType"] == "LimitExceededError")
            let small = try await client.expectData("getPost", #"{ getPost(id: "p1") { id } }"#)
            #expect(small["id"] == "p1")
        }
    }

    @Test("a request past the time limit is answered with AppSync's ExecutionTimeout", .tags(.timing))
    func timeout() async throws {
        let project = try ConflictTests.players(.lambda)
        try await TestServer(project: project, configure: {
            $0.executionLimits.timeout = .seconds(3)
            $0.lambdaConflictHandler = { _ in
                // A handler that never answers in time; cancelled when the request times out.
                try await Task.sleep(for: .seconds(60))
                return .reject
            }
        }).withClient { client in
            _ = try await client.expectData("createPlayer", #"mutation { createPlayer(input: {id: "p1", name: "n"}) { id } }"#)
            let started = ContinuousClock.now
            let reply = try await client.graphQL(#"mutation { updatePlayer(input: {id: "p1", name: "x", _version: 0}) { id } }"#)
            #expect(reply.firstError["errorType"] == "ExecutionTimeout")
            #expect(reply.firstError["message"] == "Execution timed out.")
            #expect(ContinuousClock.now - started < .seconds(30), "answered at the limit, not when the handler ends")
            let player = try await client.expectData("getPlayer", #"{ getPlayer(id: "p1") { _version } }"#)
            #expect(player["_version"] == 1, "nothing was written")
        }
    }
}

extension ExecutionLimitTests {
    @Test("a page of 100 items each with a nested connection fits the default budget")
    func ordinaryNestingFitsTheBudget() async throws {
        try await TestServer().withClient { client in
            for i in 0..<100 {
                _ = try await client.expectData(
                    "createBlog", "mutation($i: CreateBlogInput!) { createBlog(input: $i) { id } }", ["i": ["id": .string("b\(i)"), "name": "n"]])
            }
            let reply = try await client.graphQL("{ listBlogs { items { id posts { items { id } } } } }")
            #expect(reply.errors.isEmpty, "\(reply.json.jsonText.prefix(300))")
            #expect(reply.data["listBlogs"]["items"].arrayValue?.count == 100)
        }
    }
}
