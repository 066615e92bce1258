import DeltaSyncCore
import DeltaSyncPostgres
import DeltaSyncSchema
import DeltaSyncStorage
import Testing

@Suite("PostgreSQL scans and pages")
struct PaginationTests {
    let post = Fixtures.post

    @Test("a scan pages in primary key order (bytes), limit counts rows read before the filter")
    func scanPages() async throws {
        try await PostgresCluster.withStore([post]) { store in
            let ids = ["a", "B", "b", "é", "日本", "a b", "a'b", "a\"b", "10", "9"]
            try await store.put(post, ids.enumerated().map { i, id in ["id": .string(id), "rank": .int(i)] })
            let expected = ids.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for limit in [1, 3, 10, 11] {
                let pages = try await store.pages(post, ItemQuery(limit: limit))
                #expect(pages.flatMap(\.items).map { $0["id"]!.stringValue! } == expected)
                #expect(pages.dropLast().allSatisfy { $0.scanned == limit && $0.lastEvaluated != nil })
                #expect(pages.last?.lastEvaluated == nil)
                let back = try await store.pages(post, ItemQuery(limit: limit, descending: true))
                #expect(back.flatMap(\.items).map { $0["id"]!.stringValue! } == expected.reversed())
            }
            // The filter keeps 5 of 10; pages of 4 still read 4 rows each.
            let filtered = try await store.pages(post, ItemQuery(filter: .field("rank", .lt(5)), limit: 4))
            #expect(filtered.map(\.scanned) == [4, 4, 2])
            #expect(Set(filtered.flatMap(\.items).map { $0["rank"]! }) == [0, 1, 2, 3, 4])
            let first = try await store.page(post, ItemQuery(limit: 1))
            #expect(first.lastEvaluated == [.string(expected[0])])
        }
    }

    @Test("foreign cursors and bad limits are refused")
    func badArguments() async throws {
        try await PostgresCluster.withStore([post]) { store in
            try await store.put(post, [["id": "p1", "blogId": "b", "createdAt": "x"]])
            let bad: [ItemQuery] = [
                ItemQuery(limit: 0),
                ItemQuery(after: ["a", "b"]),
                ItemQuery(access: .index("byBlog", partition: "b", sortKey: nil), after: ["other", "x", "p1"]),
                ItemQuery(access: .index("nope", partition: "b", sortKey: nil)),
                ItemQuery(access: .index("byBlog", partition: .null, sortKey: nil)),
            ]
            for query in bad {
                await #expect(throws: AppSyncError.self, "\(query)") { try await store.page(post, query) }
            }
        }
    }

    @Test("a filter PostgreSQL cannot bind (U+0000) is evaluated in memory with the same result")
    func memoryFilter() async throws {
        try await PostgresCluster.withStore([post]) { store in
            try await store.put(post, [["id": "p1", "title": "a"], ["id": "p2", "title": "b"]])
            let page = try await store.page(post, ItemQuery(filter: .or([.field("title", .eq("a")), .field("title", .eq("x\u{0}"))])))
            #expect(page.items.map { $0["id"]! } == ["p1"])
            let none = try await store.page(post, ItemQuery(filter: .field("title", .ne("x\u{0}"))))
            #expect(none.items.count == 2)
        }
    }
}
