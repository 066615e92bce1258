import DeltaSyncClient
import Foundation
import Testing

@Suite("DataStore: predicates, sorting, paging, relations")
struct DataStoreQueryTests {
    static let posts: [Post] = [
        Post(id: "p1", blogID: "b1", title: "Swift on Linux", status: .published, rating: 5, views: 10.5, featured: true,
             tags: ["swift", "linux"], publishedAt: "2026-01-01T10:00:00.000Z"),
        Post(id: "p2", blogID: "b1", title: "SQLite tips", status: .draft, rating: 3, views: 2, featured: false,
             tags: ["sqlite"], publishedAt: "2026-02-01T10:00:00.000Z"),
        Post(id: "p3", blogID: "b2", title: "Offline first", status: .published, rating: 4, tags: [],
             publishedAt: "2026-03-01T10:00:00.000Z"),
        Post(id: "p4", blogID: "b2", title: "swift concurrency", status: .archived, rating: nil, views: 7, featured: true),
        Post(id: "p5", blogID: "b3", title: "Untitled", status: .draft, rating: 1, tags: ["swift", nil]),
    ]

    /// Every operator of the predicate DSL, in both spellings where there are two.
    static let predicates: [(String, QueryPredicate)] = [
        ("all", .all),
        ("eq", Post.keys.rating == 5), ("eq fn", Post.keys.rating.eq(5)),
        ("eq nil", Post.keys.rating == nil),
        ("ne", Post.keys.rating != 5), ("ne fn", Post.keys.status.ne(.draft)),
        ("le", Post.keys.rating <= 3), ("le fn", Post.keys.rating.le(3)),
        ("lt", Post.keys.rating < 3), ("lt fn", Post.keys.views.lt(8)),
        ("ge", Post.keys.rating >= 4), ("ge fn", Post.keys.views.ge(7)),
        ("gt", Post.keys.rating > 4), ("gt fn", Post.keys.publishedAt.gt("2026-01-15T00:00:00.000Z")),
        ("contains", Post.keys.title.contains("wift")), ("contains ~=", Post.keys.title ~= "SQL"),
        ("contains list", Post.keys.tags.contains("swift")),
        ("notContains", Post.keys.title.notContains("wift")), ("notContains list", Post.keys.tags.notContains("swift")),
        ("beginsWith", Post.keys.title.beginsWith("S")),
        ("between", Post.keys.rating.between(2, 4)),
        ("attributeExists true", Post.keys.views.attributeExists(true)),
        ("attributeExists false", Post.keys.featured.attributeExists(false)),
        ("in", Post.keys.status.in([.draft, .archived])), ("notIn", Post.keys.blogID.notIn(["b1", "b3"])),
        ("bool", Post.keys.featured == true),
        ("and", Post.keys.rating > 2 && Post.keys.status == .published),
        ("and fn", Post.keys.rating.gt(2).and(Post.keys.blogID.eq("b1"))),
        ("or", Post.keys.rating > 4 || Post.keys.status == .archived),
        ("or fn", Post.keys.rating.lt(2).or(Post.keys.title.beginsWith("Off"))),
        ("not", !(Post.keys.status == .draft)), ("not fn", Post.keys.rating.ge(3).not()),
        ("nested", (Post.keys.rating >= 3 || Post.keys.featured == true) && !(Post.keys.blogID == "b2")),
    ]

    @Test("every operator selects in SQLite exactly what it matches in memory", arguments: predicates.map(\.0))
    func sqlAgreesWithMemory(name: String) async throws {
        let store = try DataStore(models: DeltaSyncModels.self)
        for post in Self.posts { try await store.save(post) }
        let predicate = Self.predicates.first { $0.0 == name }!.1
        let expected = Self.posts.filter { predicate.matches($0.item) }.map(\.id).sorted()
        // Each case separates the posts, so a predicate compiled to "always" or "never" fails.
        #expect(!expected.isEmpty && (expected.count < Self.posts.count || predicate == .all))
        let found = try await store.query(Post.self, where: predicate).map(\.id).sorted()
        #expect(found == expected)
    }

    @Test("the DSL builds the filter AppSync receives")
    func dslShape() {
        #expect((Post.keys.rating > 4 && Post.keys.status == .published).filterInput
            == ["and": [["rating": ["gt": 4]], ["status": ["eq": "PUBLISHED"]]]])
        #expect(Post.keys.rating.gt(4).or(Post.keys.title.beginsWith("a")).filterInput
            == ["or": [["rating": ["gt": 4]], ["title": ["beginsWith": "a"]]]])
    }

    @Test("sorting by several fields, and paging through the sorted results")
    func sortAndPage() async throws {
        let store = try DataStore(models: DeltaSyncModels.self)
        for post in Self.posts { try await store.save(post) }
        let byStatusThenRating: [QuerySortDescriptor] = [.ascending(Post.keys.status), .descending(Post.keys.rating)]
        let sorted = try await store.query(Post.self, sort: byStatusThenRating).map(\.id)
        #expect(sorted == ["p4", "p2", "p5", "p1", "p3"])  // ARCHIVED, DRAFT (3, 1), PUBLISHED (5, 4)

        var pages: [[String]] = []
        for page in 0..<3 {
            pages.append(try await store.query(Post.self, sort: byStatusThenRating, paginate: .page(page, limit: 2)).map(\.id))
        }
        #expect(pages == [["p4", "p2"], ["p5", "p1"], ["p3"]])
        #expect(try await store.query(Post.self, where: Post.keys.rating > 1, sort: [.ascending(Post.keys.rating)], paginate: .firstResult)
            .map(\.id) == ["p2"])
    }

    @Test("relations load on demand: @belongsTo and @hasMany")
    func relations() async throws {
        let store = try DataStore(models: DeltaSyncModels.self)
        try await store.save(Blog(id: "b1", name: "Blog"))
        let post = Post(id: "p1", blogID: "b1", title: "One")
        try await store.save(post)
        try await store.save(Comment(id: "c1", content: "First", postCommentsId: "p1"))
        try await store.save(Comment(id: "c2", content: "Second", postCommentsId: "p1"))
        try await store.save(Comment(id: "c3", content: "Elsewhere", postCommentsId: "p2"))

        #expect(try await post.blog.get(from: store)?.name == "Blog")
        #expect(try await post.comments.fetch(from: store, sort: [.ascending(Comment.keys.id)]).map(\.id) == ["c1", "c2"])
        let comment = try #require(try await store.query(Comment.self, byId: "c1"))
        #expect(try await comment.post.get(from: store)?.title == "One")
        #expect(try await Post(id: "p9", blogID: "none", title: "x").blog.get(from: store) == nil)
    }

    @Test("a query reads every kind of field back as it was saved")
    func everyFieldKindRoundTrips() async throws {
        let store = try DataStore(models: DeltaSyncModels.self)
        let post = try JSONDecoder().decode(Post.self, from: Data(GeneratedModelTests.appSyncPost.utf8))
        try await store.save(post)
        #expect(try await store.query(Post.self, where: Post.keys.id == "p1") == [post], "rows read by position")
        #expect(try await store.query(Post.self, byId: "p1") == post, "the row read as an item")
    }
}
