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

    static let largeFilters: [String: String] = [
        "45 nested nots": nested("{not: ", "{rating: {eq: 1}}", "}", 45),
        "an or of 999 clauses": "{or: [" + Array(repeating: "{rating: {eq: 1}}", count: 999).joined(separator: ", ") + "]}",
    ]

    @Test("filters past the filter limits are refused with a clear error instead of SQLite's", arguments: largeFilters.keys.sorted())
    func largeFiltersAreRefused(name: String) async throws {
        let filter = Self.largeFilters[name]!
        try await TestServer().withClient { client in
            let reply = try await client.graphQL("{ listPosts(filter: \(filter)) { items { id } } }")
            #expect(reply.firstError["errorType"] == "InvalidArgumentException", "\(reply.json.jsonText.prefix(300))")
            let message = reply.firstError["message"].stringValue ?? ""
            #expect(!message.contains("SQL") && !message.contains("SELECT"))
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
