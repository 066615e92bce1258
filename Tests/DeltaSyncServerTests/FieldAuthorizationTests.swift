import DeltaSyncCore
import DeltaSyncSchema
@testable import DeltaSyncGraphQL
@testable import DeltaSyncServer
import Testing

/// One ``FieldAuthorization`` rule, given once, holds on every response path: projected pages
/// (with and without relations), `get` results, the executor, the mutation shortcut, realtime
/// events and a failed mutation's error data.
@Suite struct FieldAuthorizationTests {
    /// Hides a post's `body` when its title starts with "Secret", every blog's `website`, and
    /// the (non-null) `title` of a post rated 13.
    struct Rule: FieldAuthorization {
        func denial(of field: String, on typeName: String, in item: Item) -> AppSyncError? {
            switch (typeName, field) {
            case ("Post", "body") where item["title"]?.stringValue?.hasPrefix("Secret") == true,
                ("Blog", "website"),
                ("Post", "title") where item["rating"] == 13:
                return .fieldUnauthorized(field, on: typeName)
            default:
                return nil
            }
        }
    }

    static func withServer(_ body: (RealtimeTests.Live) async throws -> Void) async throws {
        try await RealtimeTests.withServer(configure: {
            $0.fieldAuthorization = Rule()
            $0.conflictHandler = .optimisticConcurrency
        }, body)
    }

    static let createPost = "mutation($i: CreatePostInput!) { createPost(input: $i) { id title body rating _version } }"

    /// Seeds a blog, a secret post, an open post and a post rated 13.
    static func seed(_ live: RealtimeTests.Live) async throws {
        _ = try await live.mutate(
            "mutation { createBlog(input: {id: \"b1\", name: \"B\", website: \"https://example.com\"}) { id } }")
        for (id, title, rating) in [("s1", "Secret plan", 1), ("o1", "Open letter", 2), ("t1", "Thirteen", 13)] {
            _ = try await live.mutate(
                Self.createPost, ["i": ["id": .string(id), "blogID": "b1", "title": .string(title), "body": "text", "rating": .int(rating),
                    "publishedAt": "2026-01-01T00:00:00.000Z"]])
        }
    }

    static func denied(_ field: String, _ type: String, at path: [JSONValue]) -> JSONValue {
        ["errorType": "Unauthorized", "message": .string("Not Authorized to access \(field) on type \(type)"), "path": .array(path)]
    }

    /// The errors of a response without their `locations` and `data`, which vary by path.
    static func errors(_ response: JSONValue) -> [JSONValue] {
        (response["errors"].arrayValue ?? []).map { error in
            ["errorType": error["errorType"], "message": error["message"], "path": error["path"]]
        }
    }

    @Test func projectedPagesNullTheDeniedFieldWithAppSyncsError() async throws {
        try await Self.withServer { live in
            try await Self.seed(live)
            for query in ["listPosts", "syncPosts"] {
                let response = try await live.mutate("{ \(query) { items { id body } } }")
                let items = response["data"][query]["items"].arrayValue ?? []
                let bodies = Dictionary(uniqueKeysWithValues: items.map { ($0["id"].stringValue ?? "", $0["body"]) })
                #expect(bodies == ["s1": nil, "o1": "text", "t1": "text"], "\(query)")
                let index = items.firstIndex { $0["id"] == "s1" } ?? -1
                #expect(Self.errors(response) == [Self.denied("body", "Post", at: [.string(query), "items", .int(index), "body"])])
            }
        }
    }

    @Test func relationsReadForAPageAndTheExecutorHonourTheRule() async throws {
        try await Self.withServer { live in
            try await Self.seed(live)
            // A related object read by projection, and by the executor.
            let page = try await live.mutate(#"{ listPosts(filter: {id: {eq: "o1"}}) { items { id blog { id website } } } }"#)
            #expect(page["data"]["listPosts"]["items"] == [["id": "o1", "blog": ["id": "b1", "website": nil]]])
            #expect(Self.errors(page) == [Self.denied("website", "Blog", at: ["listPosts", "items", 0, "blog", "website"])])
            let get = try await live.mutate(#"{ getPost(id: "o1") { id blog { id website } } }"#)
            #expect(get["data"]["getPost"] == ["id": "o1", "blog": ["id": "b1", "website": nil]])
            #expect(Self.errors(get) == [Self.denied("website", "Blog", at: ["getPost", "blog", "website"])])
            // A directive leaves the items to the executor.
            let executed = try await live.mutate(#"{ listPosts(filter: {id: {eq: "s1"}}) { items { id body @include(if: true) } } }"#)
            #expect(executed["data"]["listPosts"]["items"] == [["id": "s1", "body": nil]])
            #expect(Self.errors(executed) == [Self.denied("body", "Post", at: ["listPosts", "items", 0, "body"])])
            // A nested connection is completed by the executor too.
            let nested = try await live.mutate(#"{ getBlog(id: "b1") { website posts { items { id body } } } }"#)
            #expect(nested["data"]["getBlog"]["website"] == nil)
            #expect(Self.errors(nested).contains(Self.denied("website", "Blog", at: ["getBlog", "website"])))
            #expect(Self.errors(nested).contains { $0["message"] == "Not Authorized to access body on type Post" })
        }
    }

    @Test func aDeniedNonNullFieldNullsItsParent() async throws {
        try await Self.withServer { live in
            try await Self.seed(live)
            let get = try await live.mutate(#"{ getPost(id: "t1") { id title } }"#)
            #expect(get["data"] == ["getPost": nil])
            #expect(Self.errors(get) == [Self.denied("title", "Post", at: ["getPost", "title"])])
            let list = try await live.mutate(#"{ listPosts(filter: {rating: {eq: 13}}) { items { id title } } }"#)
            #expect(list["data"]["listPosts"]["items"] == [nil])
            #expect(Self.errors(list) == [Self.denied("title", "Post", at: ["listPosts", "items", 0, "title"])])
        }
    }

    @Test func mutationsAndTheirEventsNullTheDeniedField() async throws {
        try await Self.withServer { live in
            let client = try await live.connected()
            client.start(id: "s", query: "subscription { onCreatePost { id title body } }")
            _ = try await client.next("start_ack")
            // One generated mutation: the shortcut writes the result.
            let created = try await live.mutate(
                Self.createPost, ["i": ["id": "s2", "blogID": "b1", "title": "Secret two", "body": "hidden"]])
            #expect(created["data"]["createPost"]["body"] == nil)
            #expect(created["data"]["createPost"]["title"] == "Secret two")
            #expect(Self.errors(created) == [Self.denied("body", "Post", at: ["createPost", "body"])])
            let event = try await client.next("data")["payload"]
            #expect(event["data"] == ["onCreatePost": ["id": "s2", "title": "Secret two", "body": nil]])
            #expect(Self.errors(event) == [Self.denied("body", "Post", at: ["onCreatePost", "body"])])
            _ = await client.close()
        }
    }

    @Test func aConflictsErrorDataLeavesTheDeniedFieldOut() async throws {
        try await Self.withServer { live in
            try await Self.seed(live)
            let stale = try await live.mutate(
                "mutation($i: UpdatePostInput!) { updatePost(input: $i) { id title body _version } }",
                ["i": ["id": "s1", "title": "Secret plan", "_version": 0]])
            let error = stale["errors"][0]
            #expect(error["errorType"] == "ConflictUnhandled")
            #expect(error["data"] == ["id": "s1", "title": "Secret plan", "body": nil, "_version": 1])
        }
    }
}
