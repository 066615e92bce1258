import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncStorage
import Testing

@Suite("Scan and index pagination")
struct PaginationTests {
    let post = Fixtures.post

    func store(posts count: Int) async throws -> SQLiteItemStore {
        let store = try Fixtures.memoryStore(post)
        try await store.put(post, (0..<count).map { i in
            [
                "id": .string("p\(1000 + i)"), "blogId": .string("b\(i % 3)"),
                "createdAt": .string("2024-01-\(10 + i % 20)"), "rank": .int(i % 7), "title": .string("t\(i)"),
            ]
        })
        return store
    }

    @Test("scan pages cover every item once, in key order", arguments: [1, 3, 7, 50, 100])
    func scanPages(limit: Int) async throws {
        let store = try await store(posts: 50)
        let pages = try await store.pages(post, ItemQuery(limit: limit))
        let ids = pages.flatMap(\.items).map { $0["id"]!.stringValue! }
        #expect(ids == (0..<50).map { "p\(1000 + $0)" })
        #expect(pages.allSatisfy { $0.scanned <= limit })
        #expect(pages.dropLast().allSatisfy { $0.scanned == limit && $0.lastEvaluated != nil })
        #expect(pages.last?.lastEvaluated == nil)
    }

    @Test("a scan resumes from a cursor even when that item was removed")
    func resumeAfterRemoval() async throws {
        let store = try await store(posts: 10)
        let first = try await store.page(post, ItemQuery(limit: 4))
        #expect(first.lastEvaluated == ["p1003"])
        _ = try await store.write { tx in try tx.remove(post, key: ["id": "p1003"]) }
        let rest = try await store.page(post, ItemQuery(limit: 100, after: first.lastEvaluated))
        #expect(rest.items.map { $0["id"]! } == ["p1004", "p1005", "p1006", "p1007", "p1008", "p1009"])
    }

    @Test("descending scans reverse the key order")
    func descendingScan() async throws {
        let store = try await store(posts: 10)
        let pages = try await store.pages(post, ItemQuery(limit: 3, descending: true))
        #expect(pages.flatMap(\.items).map { $0["id"]!.stringValue! } == (0..<10).reversed().map { "p\(1000 + $0)" })
    }

    @Test("a filter keeps fewer items than limit per page, and the cursor still continues")
    func filteredPages() async throws {
        let store = try await store(posts: 30)
        let filter = QueryPredicate.field("rank", .eq(0))
        let pages = try await store.pages(post, ItemQuery(filter: filter, limit: 4))
        #expect(pages.count == 8)
        #expect(pages.map(\.scanned) == [4, 4, 4, 4, 4, 4, 4, 2])
        #expect(pages.contains { $0.items.isEmpty && $0.lastEvaluated != nil })
        #expect(pages.flatMap(\.items).map { $0["id"]! } == ["p1000", "p1007", "p1014", "p1021", "p1028"])
    }

    @Test("the last page ends with a nil cursor even when it is exactly full")
    func exactLastPage() async throws {
        let store = try await store(posts: 6)
        let pages = try await store.pages(post, ItemQuery(limit: 3))
        #expect(pages.map(\.scanned) == [3, 3])
        #expect(pages.map { $0.lastEvaluated == nil } == [false, true])
    }

    @Test("index pages are in sort key order, then key order, and cover the partition once")
    func indexPages() async throws {
        let store = try await store(posts: 60)
        for descending in [false, true] {
            let query = ItemQuery(access: .index("byBlogRank", partition: "b1", sortKey: nil), limit: 4, descending: descending)
            let items = try await store.pages(post, query).flatMap(\.items)
            let expected = (0..<60).filter { $0 % 3 == 1 }
                .sorted { ($0 % 7, "t\($0)") < ($1 % 7, "t\($1)") }
                .map { JSONValue.string("p\(1000 + $0)") }
            #expect(items.map { $0["id"]! } == (descending ? expected.reversed() : expected))
        }
    }

    @Test("a limit below 1 and a foreign cursor are refused")
    func invalidArguments() async throws {
        let store = try await store(posts: 3)
        await #expect(throws: AppSyncError.self) { try await store.page(post, ItemQuery(limit: 0)) }
        let foreign = ItemQuery(access: .index("byBlog", partition: "b1", sortKey: nil), after: ["b2", "2024-01-10", "p1000"])
        let error = await #expect(throws: AppSyncError.self) { try await store.page(post, foreign) }
        #expect(error?.errorType == .invalidArgument)
        await #expect(throws: AppSyncError.self) {
            try await store.page(post, ItemQuery(after: ["p1000", "extra"]))
        }
        await #expect(throws: AppSyncError.self) {
            try await store.page(post, ItemQuery(access: .index("nope", partition: "b1", sortKey: nil)))
        }
    }

    @Test("a query on a key without sort fields finds one item and has nothing after it")
    func singleKeyQuery() async throws {
        let store = try await store(posts: 3)
        let page = try await store.page(post, ItemQuery(access: .index(nil, partition: "p1001", sortKey: nil), limit: 1))
        #expect(page.items.map { $0["id"]! } == ["p1001"])
        #expect(page.lastEvaluated == nil)
        let after = try await store.page(post, ItemQuery(access: .index(nil, partition: "p1001", sortKey: nil), after: ["p1001"]))
        #expect(after.items.isEmpty)
    }
}
