import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncStorage
import Testing

@Suite("Scan and index pagination")
struct PaginationTests {
    let post = Fixtures.post

    func seed(_ store: any ItemStore, posts count: Int) async throws {
        try await store.put(post, (0..<count).map { i in
            [
                "id": .string("p\(1000 + i)"), "blogId": .string("b\(i % 3)"),
                "createdAt": .string("2024-01-\(10 + i % 20)"), "rank": .int(i % 7), "title": .string("t\(i)"),
            ]
        })
    }

    @Test("scan pages cover every item once, in key order", arguments: StoreKind.allCases, [1, 3, 7, 50, 100])
    func scanPages(kind: StoreKind, limit: Int) async throws {
        try await kind.withStore(post) { store in
            try await seed(store, posts: 50)
            let pages = try await store.pages(post, ItemQuery(limit: limit))
            let ids = pages.flatMap(\.items).map { $0["id"]!.stringValue! }
            #expect(ids == (0..<50).map { "p\(1000 + $0)" })
            #expect(pages.allSatisfy { $0.scanned <= limit })
            #expect(pages.dropLast().allSatisfy { $0.scanned == limit && $0.lastEvaluated != nil })
            #expect(pages.last?.lastEvaluated == nil)
        }
    }

    @Test("the key order is the keys' UTF-8 bytes, both ways", arguments: StoreKind.allCases)
    func byteOrder(kind: StoreKind) async throws {
        try await kind.withStore(post) { store in
            let ids = ["a", "B", "b", "é", "日本", "a b", "a'b", "a\"b", "10", "9"]
            try await store.put(post, ids.map { ["id": .string($0)] })
            let expected = ids.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for limit in [1, 3, 10, 11] {
                let pages = try await store.pages(post, ItemQuery(limit: limit))
                #expect(pages.flatMap(\.items).map { $0["id"]!.stringValue! } == expected)
                let back = try await store.pages(post, ItemQuery(limit: limit, descending: true))
                #expect(back.flatMap(\.items).map { $0["id"]!.stringValue! } == expected.reversed())
            }
            #expect(try await store.page(post, ItemQuery(limit: 1)).lastEvaluated == [.string(expected[0])])
        }
    }

    @Test("a scan resumes from a cursor even when that item was removed", arguments: StoreKind.allCases)
    func resumeAfterRemoval(kind: StoreKind) async throws {
        try await kind.withStore(post) { store in
            try await seed(store, posts: 10)
            let first = try await store.page(post, ItemQuery(limit: 4))
            #expect(first.lastEvaluated == ["p1003"])
            _ = try await store.write { tx in try tx.remove(post, key: ["id": "p1003"]) }
            let rest = try await store.page(post, ItemQuery(limit: 100, after: first.lastEvaluated))
            #expect(rest.items.map { $0["id"]! } == ["p1004", "p1005", "p1006", "p1007", "p1008", "p1009"])
        }
    }

    @Test("descending scans reverse the key order", arguments: StoreKind.allCases)
    func descendingScan(kind: StoreKind) async throws {
        try await kind.withStore(post) { store in
            try await seed(store, posts: 10)
            let pages = try await store.pages(post, ItemQuery(limit: 3, descending: true))
            #expect(pages.flatMap(\.items).map { $0["id"]!.stringValue! } == (0..<10).reversed().map { "p\(1000 + $0)" })
        }
    }

    @Test("a filter keeps fewer items than limit per page, and the cursor still continues", arguments: StoreKind.allCases)
    func filteredPages(kind: StoreKind) async throws {
        try await kind.withStore(post) { store in
            try await seed(store, posts: 30)
            let filter = QueryPredicate.field("rank", .eq(0))
            let pages = try await store.pages(post, ItemQuery(filter: filter, limit: 4))
            #expect(pages.count == 8)
            #expect(pages.map(\.scanned) == [4, 4, 4, 4, 4, 4, 4, 2])
            #expect(pages.contains { $0.items.isEmpty && $0.lastEvaluated != nil })
            #expect(pages.flatMap(\.items).map { $0["id"]! } == ["p1000", "p1007", "p1014", "p1021", "p1028"])
        }
    }

    /// PostgreSQL cannot bind text holding U+0000, so its store evaluates such a filter in memory;
    /// SQLite compiles every filter. The answer is the same.
    @Test("a filter comparing with U+0000 finds what QueryPredicate.matches finds", arguments: StoreKind.allCases)
    func nulInFilter(kind: StoreKind) async throws {
        try await kind.withStore(post) { store in
            try await store.put(post, [["id": "p1", "title": "a"], ["id": "p2", "title": "b"]])
            let page = try await store.page(post, ItemQuery(filter: .or([.field("title", .eq("a")), .field("title", .eq("x\u{0}"))])))
            #expect(page.items.map { $0["id"]! } == ["p1"])
            let none = try await store.page(post, ItemQuery(filter: .field("title", .ne("x\u{0}"))))
            #expect(none.items.count == 2)
        }
    }

    @Test("the last page ends with a nil cursor even when it is exactly full", arguments: StoreKind.allCases)
    func exactLastPage(kind: StoreKind) async throws {
        try await kind.withStore(post) { store in
            try await seed(store, posts: 6)
            let pages = try await store.pages(post, ItemQuery(limit: 3))
            #expect(pages.map(\.scanned) == [3, 3])
            #expect(pages.map { $0.lastEvaluated == nil } == [false, true])
        }
    }

    @Test("index pages are in sort key order, then key order, and cover the partition once", arguments: StoreKind.allCases)
    func indexPages(kind: StoreKind) async throws {
        try await kind.withStore(post) { store in
            try await seed(store, posts: 60)
            for descending in [false, true] {
                let query = ItemQuery(access: .index("byBlogRank", partition: "b1", sortKey: nil), limit: 4, descending: descending)
                let items = try await store.pages(post, query).flatMap(\.items)
                let expected = (0..<60).filter { $0 % 3 == 1 }
                    .sorted { ($0 % 7, "t\($0)") < ($1 % 7, "t\($1)") }
                    .map { JSONValue.string("p\(1000 + $0)") }
                #expect(items.map { $0["id"]! } == (descending ? expected.reversed() : expected))
            }
        }
    }

    @Test("a limit below 1, a foreign cursor, an unknown index and a null partition are refused", arguments: StoreKind.allCases)
    func invalidArguments(kind: StoreKind) async throws {
        try await kind.withStore(post) { store in
            try await seed(store, posts: 3)
            await #expect(throws: AppSyncError.self) { try await store.page(post, ItemQuery(limit: 0)) }
            let foreign = ItemQuery(access: .index("byBlog", partition: "b1", sortKey: nil), after: ["b2", "2024-01-10", "p1000"])
            let error = await #expect(throws: AppSyncError.self) { try await store.page(post, foreign) }
            #expect(error?.errorType == .invalidArgument)
            let bad: [ItemQuery] = [
                ItemQuery(after: ["p1000", "extra"]),
                ItemQuery(access: .index("nope", partition: "b1", sortKey: nil)),
                ItemQuery(access: .index("byBlog", partition: .null, sortKey: nil)),
            ]
            for query in bad {
                await #expect(throws: AppSyncError.self, "\(query)") { try await store.page(post, query) }
            }
        }
    }

    @Test("a query on a key without sort fields finds one item and has nothing after it", arguments: StoreKind.allCases)
    func singleKeyQuery(kind: StoreKind) async throws {
        try await kind.withStore(post) { store in
            try await seed(store, posts: 3)
            let page = try await store.page(post, ItemQuery(access: .index(nil, partition: "p1001", sortKey: nil), limit: 1))
            #expect(page.items.map { $0["id"]! } == ["p1001"])
            #expect(page.lastEvaluated == nil)
            let after = try await store.page(post, ItemQuery(access: .index(nil, partition: "p1001", sortKey: nil), after: ["p1001"]))
            #expect(after.items.isEmpty)
        }
    }
}
