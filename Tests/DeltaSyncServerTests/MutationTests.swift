import DeltaSyncCore
import Foundation
import Testing

@Suite struct MutationTests {
    static let createPost = """
        mutation Create($input: CreatePostInput!, $condition: ModelPostConditionInput) {
          createPost(input: $input, condition: $condition) {
            id title status rating tags createdAt updatedAt __typename _version _deleted _lastChangedAt
          }
        }
        """
    static let updatePost = """
        mutation Update($input: UpdatePostInput!, $condition: ModelPostConditionInput) {
          updatePost(input: $input, condition: $condition) { id title rating body _version _deleted _lastChangedAt updatedAt }
        }
        """
    static let deletePost = """
        mutation Delete($input: DeletePostInput!, $condition: ModelPostConditionInput) {
          deletePost(input: $input, condition: $condition) { id title _version _deleted _lastChangedAt }
        }
        """

    @Test func createSetsServerFields() async throws {
        try await TestServer().withClient { client in
            let before = Int(Date().timeIntervalSince1970 * 1000)
            let post = try await client.expectData(
                "createPost", Self.createPost, ["input": ["blogID": "b1", "title": "Hello", "tags": ["a", "b"]]])
            #expect(post["id"].stringValue?.count == 36)
            #expect(post["__typename"] == "Post")
            #expect(post["_version"] == 1)
            #expect(post["status"] == "DRAFT", "the @default value applies")
            #expect(post["tags"] == ["a", "b"])
            #expect(post["createdAt"] == post["updatedAt"])
            #expect(post["createdAt"].stringValue?.hasSuffix("Z") == true)
            let changed = try #require(post["_lastChangedAt"].intValue)
            #expect(changed >= before && changed < before + 60_000, "_lastChangedAt is epoch milliseconds")
        }
    }

    @Test func createWithExistingIDFailsLikeAppSync() async throws {
        try await TestServer().withClient { client in
            let input: JSONValue = ["input": ["id": "p1", "blogID": "b1", "title": "First"]]
            _ = try await client.expectData("createPost", Self.createPost, input)
            let reply = try await client.graphQL(Self.createPost, ["input": ["id": "p1", "blogID": "b1", "title": "Again"]])
            #expect(reply.data["createPost"] == .null)
            #expect(reply.firstError["errorType"] == "ConditionalCheckFailedException")
            #expect(reply.firstError["path"] == ["createPost"])
            #expect(reply.firstError["data"] == .null)
            #expect(reply.firstError["message"].stringValue?.hasPrefix("The conditional request failed") == true)
            let title = try await client.expectData("getPost", "{ getPost(id: \"p1\") { title } }")["title"]
            #expect(title == "First", "the failed create changed nothing")
        }
    }

    @Test func updateWithCurrentVersionAppliesAndBumps() async throws {
        try await TestServer().withClient { client in
            _ = try await client.expectData(
                "createPost", Self.createPost, ["input": ["id": "p1", "blogID": "b1", "title": "A", "body": "text"]])
            let updated = try await client.expectData(
                "updatePost", Self.updatePost, ["input": ["id": "p1", "title": "B", "rating": 5, "body": nil, "_version": 1]])
            #expect(updated["title"] == "B")
            #expect(updated["rating"] == 5)
            #expect(updated["body"] == .null, "an explicit null removes the field")
            #expect(updated["_version"] == 2)
        }
    }

    @Test func updateWithStaleVersionIsRejectedWithServerItem() async throws {
        try await TestServer(configure: { $0.conflictHandler = .optimisticConcurrency }).withClient { client in
            _ = try await client.expectData("createPost", Self.createPost, ["input": ["id": "p1", "blogID": "b1", "title": "A"]])
            _ = try await client.expectData("updatePost", Self.updatePost, ["input": ["id": "p1", "title": "B", "_version": 1]])
            let reply = try await client.graphQL(Self.updatePost, ["input": ["id": "p1", "title": "C", "_version": 1]])
            #expect(reply.data["updatePost"] == .null)
            #expect(reply.firstError["errorType"] == "ConflictUnhandled")
            #expect(reply.firstError["message"] == "Conflict resolver rejects mutation.")
            #expect(reply.firstError["data"]["title"] == "B")
            #expect(reply.firstError["data"]["_version"] == 2)
            #expect(reply.firstError["data"].objectValue?["__typename"] == nil, "fields the mutation did not select are left out")
        }
    }

    @Test func updateOfMissingItemFailsTheKeyCondition() async throws {
        try await TestServer().withClient { client in
            let reply = try await client.graphQL(Self.updatePost, ["input": ["id": "nope", "title": "C", "_version": 1]])
            #expect(reply.firstError["errorType"] == "ConditionalCheckFailedException")
        }
    }

    @Test func conditionIsEvaluatedAgainstTheStoredItem() async throws {
        try await TestServer().withClient { client in
            _ = try await client.expectData(
                "createPost", Self.createPost, ["input": ["id": "p1", "blogID": "b1", "title": "A", "rating": 3]])
            let refused = try await client.graphQL(
                Self.updatePost,
                ["input": ["id": "p1", "title": "B", "_version": 1], "condition": ["rating": ["gt": 3]]])
            #expect(refused.firstError["errorType"] == "ConditionalCheckFailedException")
            let accepted = try await client.expectData(
                "updatePost", Self.updatePost,
                ["input": ["id": "p1", "title": "B", "_version": 1], "condition": ["rating": ["ge": 3], "title": ["beginsWith": "A"]]])
            #expect(accepted["title"] == "B")
        }
    }

    @Test func deleteWritesATombstone() async throws {
        try await TestServer().withClient { client in
            _ = try await client.expectData("createPost", Self.createPost, ["input": ["id": "p1", "blogID": "b1", "title": "A"]])
            let deleted = try await client.expectData("deletePost", Self.deletePost, ["input": ["id": "p1", "_version": 1]])
            #expect(deleted["_deleted"] == true)
            #expect(deleted["_version"] == 2)
            #expect(deleted["title"] == "A", "the deleted item is returned whole")
            let stored = try await client.expectData("getPost", "{ getPost(id: \"p1\") { id _deleted _version } }")
            #expect(stored["_deleted"] == true)
        }
    }

    @Test func deleteWithoutVersionIsAConflict() async throws {
        try await TestServer().withClient { client in
            _ = try await client.expectData("createPost", Self.createPost, ["input": ["id": "p1", "blogID": "b1", "title": "A"]])
            let reply = try await client.graphQL(Self.deletePost, ["input": ["id": "p1"]])
            #expect(reply.firstError["errorType"] == "ConflictUnhandled")
        }
    }

    @Test func compositeKeyModelWorksEverywhereAnIDDoes() async throws {
        try await TestServer().withClient { client in
            let create = "mutation($i: CreateReactionInput!) { createReaction(input: $i) { postID userID emoji _version } }"
            _ = try await client.expectData("createReaction", create, ["i": ["postID": "p1", "userID": "u1", "emoji": "🎉"]])
            _ = try await client.expectData("createReaction", create, ["i": ["postID": "p1", "userID": "u2", "emoji": "👍"]])
            let got = try await client.expectData(
                "getReaction", #"{ getReaction(postID: "p1", userID: "u2") { emoji } }"#)
            #expect(got["emoji"] == "👍")
            let duplicate = try await client.graphQL(create, ["i": ["postID": "p1", "userID": "u1", "emoji": "x"]])
            #expect(duplicate.firstError["errorType"] == "ConditionalCheckFailedException")
            let update = "mutation($i: UpdateReactionInput!) { updateReaction(input: $i) { emoji _version } }"
            let updated = try await client.expectData(
                "updateReaction", update, ["i": ["postID": "p1", "userID": "u1", "emoji": "🚀", "_version": 1]])
            #expect(updated["emoji"] == "🚀")
            let listed = try await client.expectData(
                "listReactions", #"{ listReactions(postID: "p1", sortDirection: DESC) { items { userID } } }"#)
            #expect(listed["items"] == [["userID": "u2"], ["userID": "u1"]])
        }
    }
}

@Suite struct ServerOwnedFieldTests {
    @Test(arguments: ["_lastChangedAt: 5", "_deleted: true", "_ttl: 5"])
    func settingSyncMetadataIsABadRequest(field: String) async throws {
        try await TestServer().withClient { client in
            let reply = try await client.graphQL(
                "mutation { createPost(input: {blogID: \"b\", title: \"t\", \(field)}) { id } }")
            #expect(reply.firstError["errorType"] == "BadRequest")
            #expect(reply.firstError["message"].stringValue?.contains("managed by the server") == true)
            let listed = try await client.expectData("listPosts", "{ listPosts { items { id } } }")
            #expect(listed["items"] == [])
        }
    }

    @Test func conflictDataResolvesTheSelectedBelongsTo() async throws {
        try await TestServer(configure: { $0.conflictHandler = .optimisticConcurrency }).withClient { client in
            _ = try await client.expectData("createBlog", "mutation { createBlog(input: {id: \"b1\", name: \"Blog\"}) { id } }")
            _ = try await client.expectData(
                "createPost", "mutation { createPost(input: {id: \"p1\", blogID: \"b1\", title: \"t\"}) { id } }")
            let reply = try await client.graphQL(
                "mutation { updatePost(input: {id: \"p1\", title: \"x\", _version: 0}) { id title __typename blog { id name _deleted __typename } } }")
            #expect(reply.firstError["errorType"] == "ConflictUnhandled")
            #expect(reply.firstError["data"]["blog"]["name"] == "Blog")
            #expect(reply.firstError["data"]["blog"]["__typename"] == "Blog")
            #expect(reply.firstError["data"]["title"] == "t")
            #expect(reply.firstError["data"]["_ttl"] == .null)
        }
    }
}
