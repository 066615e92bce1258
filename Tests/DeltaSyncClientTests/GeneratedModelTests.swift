import DeltaSyncClient
import Foundation
import Testing

/// The models the DeltaSyncModels plugin generates from this target's `schema.graphql` (the example
/// blog schema), read from and written to AppSync's JSON.
struct GeneratedModelTests {
    /// A `Post` as AppSync returns it: `__typename`, sync metadata and the nested relations a
    /// selection set may ask for, none of which the model stores.
    static let appSyncPost = #"""
        {
          "__typename": "Post",
          "id": "p1",
          "blogID": "b1",
          "title": "Offline first",
          "body": null,
          "status": "PUBLISHED",
          "rating": 5,
          "views": 10.5,
          "featured": true,
          "tags": ["swift", null, "linux"],
          "location": {"__typename": "Location", "lat": 52.52, "lon": 13.405, "name": "Berlin"},
          "metadata": "{\"source\":\"import\",\"words\":[1,2]}",
          "publishedAt": "2026-01-02T10:00:00.000Z",
          "publishDay": "2026-01-02",
          "readingTime": "10:30:00",
          "expiresAt": 1767348000,
          "authorPhone": "+15555550100",
          "authorIp": "192.0.2.1",
          "createdAt": "2026-01-01T09:00:00.000Z",
          "updatedAt": "2026-01-01T09:30:00.000Z",
          "_version": 3,
          "_deleted": null,
          "_lastChangedAt": 1767259800000,
          "blog": {"__typename": "Blog", "id": "b1", "name": "Notes", "_version": 1},
          "comments": {"items": [{"__typename": "Comment", "id": "c1", "content": "First"}], "nextToken": null}
        }
        """#

    private func json(_ text: String) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }

    @Test func decodesAppSyncJSON() throws {
        let post = try JSONDecoder().decode(Post.self, from: Data(Self.appSyncPost.utf8))
        #expect(post.id == "p1")
        #expect(post.blogID == "b1")
        #expect(post.title == "Offline first")
        #expect(post.body == nil)
        #expect(post.status == .published)
        #expect(post.rating == 5)
        #expect(post.views == 10.5)
        #expect(post.featured == true)
        #expect(post.tags == ["swift", nil, "linux"])
        #expect(post.location == Location(lat: 52.52, lon: 13.405, name: "Berlin"))
        #expect(post.metadata == ["source": "import", "words": [1, 2]])
        #expect(post.publishedAt == Temporal.DateTime(iso8601: "2026-01-02T10:00:00.000Z"))
        #expect(post.publishedAt?.foundationDate == Date(timeIntervalSince1970: 1_767_348_000))
        #expect(post.publishDay == Temporal.Date(iso8601: "2026-01-02"))
        #expect(post.readingTime == Temporal.Time(iso8601: "10:30:00"))
        #expect(post.expiresAt == Date(timeIntervalSince1970: 1_767_348_000))
        #expect(post.authorPhone == "+15555550100")
        #expect(post.authorIp == "192.0.2.1")
        #expect(post.createdAt == "2026-01-01T09:00:00.000Z")
        #expect(post.updatedAt == "2026-01-01T09:30:00.000Z")
    }

    @Test func encodesTheStoredFieldsInAppSyncShape() throws {
        let post = try JSONDecoder().decode(Post.self, from: Data(Self.appSyncPost.utf8))
        let encoded = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(post))
        // The stored fields exactly: what AppSync sent, without what the model does not store.
        var expected = try #require(try json(Self.appSyncPost).objectValue)
        for key in ["__typename", "_version", "_deleted", "_lastChangedAt", "blog", "comments"] { expected[key] = nil }
        expected["location"] = ["lat": 52.52, "lon": 13.405, "name": "Berlin"]
        #expect(encoded == .object(expected))
        #expect(try JSONDecoder().decode(Post.self, from: JSONEncoder().encode(post)) == post)
    }

    @Test func aModelCreatedInSwiftRoundTrips() throws {
        let post = Post(blogID: "b1", title: "Draft", tags: [], location: Location(lat: 1, lon: 2))
        #expect(post.status == .draft)
        #expect(UUID(uuidString: post.id) != nil)
        #expect(post.item["createdAt"] == .null)
        #expect(try Post(item: post.item) == post)
        #expect(try JSONDecoder().decode(Post.self, from: JSONEncoder().encode(post)) == post)
    }

    @Test func typedKeysBuildPredicates() {
        #expect((Post.keys.rating > 4 && Post.keys.status == .published)
            == .and([.field("rating", .gt(4)), .field("status", .eq("PUBLISHED"))]))
        #expect(Post.keys.tags.contains("swift") == .field("tags", .contains("swift")))
        #expect((Post.keys.publishedAt >= "2026-01-01T00:00:00.000Z") == .field("publishedAt", .ge("2026-01-01T00:00:00.000Z")))
    }

    @Test func aMissingRequiredFieldNamesTheField() throws {
        var item = try #require(try json(Self.appSyncPost).objectValue)
        item["title"] = nil
        #expect(throws: DataStoreError.decoding(model: "Post", field: "title", reason: "the field is required but has no value")) {
            try Post(item: item)
        }
        let text = try #require(String(data: JSONEncoder().encode(JSONValue.object(item)), encoding: .utf8))
        let error = try #require(throws: DataStoreError.self) {
            try JSONDecoder().decode(Post.self, from: Data(text.utf8))
        }
        guard case .decoding("Post", "title", _) = error else {
            Issue.record("unexpected \(error)")
            return
        }
    }

    @Test func aValueOfTheWrongTypeNamesTheField() throws {
        var item = try #require(try json(Self.appSyncPost).objectValue)
        item["status"] = "LIVE"
        let error = try #require(throws: DataStoreError.self) { try Post(item: item) }
        guard case .decoding("Post", "status", let reason) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(reason.contains("LIVE"))
    }

    @Test func registryAndKeys() {
        #expect(DeltaSyncModels.models.map { $0.modelName } == ["Blog", "Post", "Comment", "Label", "Reaction", "PostLabel"])
        #expect(Post.schema.name == "Post")
        #expect(PostLabel.schema.isJoinModel)
        let reaction = Reaction(postID: "p1", userID: "u1", emoji: "👍")
        #expect(reaction.identifier == ModelIdentifier(["postID": "p1", "userID": "u1"]))
        #expect(Post(id: "p1", blogID: "b1", title: "T").identifier == "p1")
    }

    @Test func relationsReadTheForeignKeys() {
        let post = Post(id: "p1", blogID: "b1", title: "T")
        #expect(post.blog.identifier == "b1")
        #expect(post.comments.predicate == .field("postCommentsId", .eq("p1")))
        #expect(post.labels.predicate == .field("postID", .eq("p1")))
        #expect(Comment(content: "c").post.identifier == nil)
    }
}
