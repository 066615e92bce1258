import DeltaSyncCore
import Testing

@Suite struct QueryTests {
    /// Ten posts in two blogs, with ratings 1...10 and tags.
    static func seed(_ client: TestServer.Client) async throws {
        let blog = "mutation($i: CreateBlogInput!) { createBlog(input: $i) { id } }"
        _ = try await client.expectData("createBlog", blog, ["i": ["id": "b1", "name": "One"]])
        _ = try await client.expectData("createBlog", blog, ["i": ["id": "b2", "name": "Two"]])
        for n in 1...10 {
            let input: JSONValue = [
                "id": .string("p\(n < 10 ? "0" : "")\(n)"),
                "blogID": n <= 6 ? "b1" : "b2",
                "title": .string("Post \(n)"),
                "rating": .int(n),
                "status": n % 2 == 0 ? "PUBLISHED" : "DRAFT",
                "tags": n % 3 == 0 ? ["swift", "sync"] : ["misc"],
                "publishedAt": .string("2024-01-\(n < 10 ? "0" : "")\(n)T10:00:00.000Z"),
            ]
            _ = try await client.expectData(
                "createPost", "mutation($i: CreatePostInput!) { createPost(input: $i) { id } }", ["i": input])
        }
    }

    static func ids(_ connection: JSONValue) -> [String] {
        (connection["items"].arrayValue ?? []).compactMap { $0["id"].stringValue }
    }

    @Test func listFiltersWithEveryOperatorFamily() async throws {
        try await TestServer().withClient { client in
            try await Self.seed(client)
            func list(_ filter: JSONValue) async throws -> [String] {
                let data = try await client.expectData(
                    "listPosts", "query($f: ModelPostFilterInput) { listPosts(filter: $f) { items { id } } }",
                    ["f": filter])
                return Self.ids(data).sorted()
            }
            #expect(try await list(["rating": ["gt": 8]]) == ["p09", "p10"])
            #expect(try await list(["rating": ["between": [2, 3]]]) == ["p02", "p03"])
            #expect(try await list(["title": ["beginsWith": "Post 1"]]) == ["p01", "p10"])
            #expect(try await list(["tags": ["contains": "swift"]]) == ["p03", "p06", "p09"])
            #expect(try await list(["status": ["eq": "PUBLISHED"], "rating": ["le": 4]]) == ["p02", "p04"])
            #expect(try await list(["or": [["rating": ["eq": 1]], ["rating": ["eq": 10]]]]) == ["p01", "p10"])
            #expect(try await list(["not": ["blogID": ["eq": "b1"]]]) == ["p07", "p08", "p09", "p10"])
            #expect(try await list(["body": ["attributeExists": true]]) == [])
            #expect(try await list(["title": ["size": ["eq": 7]]]) == ["p10"])
            #expect(try await list(["and": [["rating": ["ge": 5]], ["tags": ["notContains": "misc"]]]]) == ["p06", "p09"])
        }
    }

    @Test func paginationVisitsEveryItemOnce() async throws {
        try await TestServer().withClient { client in
            try await Self.seed(client)
            var seen: [String] = []
            var token: JSONValue = nil
            var pages = 0
            repeat {
                let page = try await client.expectData(
                    "listPosts", "query($t: String) { listPosts(limit: 3, nextToken: $t) { items { id } nextToken } }",
                    ["t": token])
                seen += Self.ids(page)
                token = page["nextToken"]
                pages += 1
            } while token != .null && pages < 20
            #expect(seen.sorted() == (1...10).map { "p\($0 < 10 ? "0" : "")\($0)" })
            #expect(pages == 4)
        }
    }

    @Test func forgedNextTokenIsRefused() async throws {
        try await TestServer().withClient { client in
            try await Self.seed(client)
            let page = try await client.expectData("listPosts", "{ listPosts(limit: 2) { nextToken } }")
            let token = try #require(page["nextToken"].stringValue)
            let forged = String(token.dropLast(2)) + (token.hasSuffix("AA") ? "BB" : "AA")
            let reply = try await client.graphQL(
                "query($t: String) { listPosts(limit: 2, nextToken: $t) { items { id } } }", ["t": .string(forged)])
            #expect(reply.firstError["errorType"] == "InvalidArgumentException")
            let wrongQuery = try await client.graphQL(
                "query($t: String) { listBlogs(nextToken: $t) { items { id } } }", ["t": .string(token)])
            #expect(wrongQuery.firstError["errorType"] == "InvalidArgumentException")
        }
    }

    @Test func indexQueryWithSortKeyConditionAndDirection() async throws {
        try await TestServer().withClient { client in
            try await Self.seed(client)
            let query = """
                query($b: ID!, $d: ModelSortDirection, $p: ModelStringKeyConditionInput) {
                  postsByBlog(blogID: $b, sortDirection: $d, publishedAt: $p) { items { id } }
                }
                """
            let asc = try await client.expectData("postsByBlog", query, ["b": "b1"])
            #expect(Self.ids(asc) == ["p01", "p02", "p03", "p04", "p05", "p06"])
            let desc = try await client.expectData(
                "postsByBlog", query, ["b": "b1", "d": "DESC", "p": ["between": ["2024-01-02", "2024-01-04T23"]]])
            #expect(Self.ids(desc) == ["p04", "p03", "p02"])
            let prefix = try await client.expectData(
                "postsByBlog", query, ["b": "b2", "p": ["beginsWith": "2024-01-1"]])
            #expect(Self.ids(prefix) == ["p10"])
        }
    }

    @Test func nestedRelationsResolve() async throws {
        try await TestServer().withClient { client in
            try await Self.seed(client)
            let blog = try await client.expectData(
                "getBlog",
                #"{ getBlog(id: "b1") { name posts(limit: 4, sortDirection: DESC) { items { id blog { name } } nextToken } } }"#)
            #expect(Self.ids(blog["posts"]) == ["p06", "p05", "p04", "p03"])
            #expect(blog["posts"]["items"][0]["blog"]["name"] == "One")
            let token = try #require(blog["posts"]["nextToken"].stringValue)
            let rest = try await client.expectData(
                "getBlog",
                "query($t: String) { getBlog(id: \"b1\") { posts(limit: 4, sortDirection: DESC, nextToken: $t) { items { id } nextToken } } }",
                ["t": .string(token)])
            #expect(Self.ids(rest["posts"]) == ["p02", "p01"])
            #expect(rest["posts"]["nextToken"] == .null)
        }
    }

    @Test func implicitHasManyAndManyToManyResolve() async throws {
        try await TestServer().withClient { client in
            try await Self.seed(client)
            _ = try await client.expectData(
                "createComment",
                "mutation($i: CreateCommentInput!) { createComment(input: $i) { id } }",
                ["i": ["id": "c1", "content": "Nice", "postCommentsId": "p01"]])
            let post = try await client.expectData(
                "getPost", #"{ getPost(id: "p01") { comments { items { content post { title } } } } }"#)
            #expect(post["comments"]["items"] == [["content": "Nice", "post": ["title": "Post 1"]]])

            _ = try await client.expectData(
                "createLabel", "mutation { createLabel(input: {id: \"l1\", name: \"Tech\"}) { id } }")
            _ = try await client.expectData(
                "createPostLabel",
                "mutation { createPostLabel(input: {postID: \"p01\", labelID: \"l1\"}) { id } }")
            let labelled = try await client.expectData(
                "getPost", #"{ getPost(id: "p01") { labels { items { label { name } } } } }"#)
            #expect(labelled["labels"]["items"] == [["label": ["name": "Tech"]]])
            let label = try await client.expectData(
                "getLabel", #"{ getLabel(id: "l1") { posts { items { post { id } } } } }"#)
            #expect(label["posts"]["items"] == [["post": ["id": "p01"]]])
        }
    }

    @Test func syncQueryReturnsStartedAtAndTombstones() async throws {
        try await TestServer().withClient { client in
            try await Self.seed(client)
            _ = try await client.expectData(
                "deletePost", "mutation { deletePost(input: {id: \"p01\", _version: 1}) { id } }")
            var all: [JSONValue] = []
            var token: JSONValue = nil
            var startedAt: JSONValue = nil
            repeat {
                let page = try await client.expectData(
                    "syncPosts",
                    "query($t: String) { syncPosts(limit: 4, nextToken: $t) { items { id _deleted _version } nextToken startedAt } }",
                    ["t": token])
                if startedAt == .null { startedAt = page["startedAt"] }
                #expect(page["startedAt"] == startedAt, "startedAt is fixed for the whole pagination")
                all += page["items"].arrayValue ?? []
                token = page["nextToken"]
            } while token != .null
            #expect(all.count == 10)
            #expect(all.first { $0["id"] == "p01" }?["_deleted"] == true)
        }
    }

    @Test func invalidAWSScalarsAreRefused() async throws {
        try await TestServer().withClient { client in
            let create = "mutation($i: CreateBlogInput!) { createBlog(input: $i) { id } }"
            let badEmail = try await client.graphQL(create, ["i": ["name": "x", "owner": "not-an-email"]])
            #expect(badEmail.data["createBlog"] == .null)
            #expect(badEmail.firstError["message"].stringValue?.contains("AWSEmail") == true)
            let badURL = try await client.graphQL(create, ["i": ["name": "x", "website": "no scheme"]])
            #expect(badURL.firstError["message"].stringValue?.contains("AWSURL") == true)
            let literal = try await client.graphQL(#"mutation { createBlog(input: {name: "x", owner: "nope"}) { id } }"#)
            #expect(literal.firstError["message"].stringValue?.contains("AWSEmail") == true)

            let post = "mutation($i: CreatePostInput!) { createPost(input: $i) { id metadata publishedAt } }"
            let badDate = try await client.graphQL(post, ["i": ["blogID": "b", "title": "t", "publishedAt": "2024-13-01T00:00:00Z"]])
            #expect(badDate.firstError["message"].stringValue?.contains("AWSDateTime") == true)
            let badJSON = try await client.graphQL(post, ["i": ["blogID": "b", "title": "t", "metadata": "{nope"]])
            #expect(badJSON.firstError["message"].stringValue?.contains("AWSJSON") == true)
            let good = try await client.expectData(
                "createPost", post,
                ["i": ["blogID": "b", "title": "t", "metadata": #"{"a":[1,2]}"#, "publishedAt": "2024-02-29T23:59:59.123+01:00"]])
            #expect(good["metadata"] == #"{"a":[1,2]}"#)
            let listed = try await client.expectData("listBlogs", "{ listBlogs { items { id } } }")
            #expect(listed["items"] == [], "refused creates stored nothing")
        }
    }

    /// `[String]` allows null elements. The GraphQL library cannot complete a list holding null
    /// (it fails the whole response), so root results are completed by `ItemProjection`.
    @Test func aListHoldingNullReadsBack() async throws {
        try await TestServer().withClient { client in
            let created = try await client.expectData(
                "createPost", "mutation($i: CreatePostInput!) { createPost(input: $i) { tags } }",
                ["i": ["id": "n1", "blogID": "b1", "title": "T", "tags": ["a", nil]]])
            #expect(created["tags"] == ["a", nil])
            let got = try await client.expectData("getPost", #"{ getPost(id: "n1") { tags } }"#)
            #expect(got["tags"] == ["a", nil])
            for field in ["listPosts", "syncPosts"] {
                let page = try await client.expectData(field, "{ \(field) { items { tags } } }")
                #expect(page["items"][0]["tags"] == ["a", nil], "\(field)")
            }
        }
    }
}

