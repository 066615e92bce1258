import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncStorage
import DeltaSyncTestSupport
import Testing

@Suite("Index queries")
struct IndexQueryTests {
    let post = Fixtures.post

    /// Blog b1 has days 01...05 (p1...p5); b2 has one post; p9 has no createdAt, p10 no blogId.
    func seed(_ store: any ItemStore) async throws {
        var items: [Item] = (1...5).map { ["id": .string("p\($0)"), "blogId": "b1", "createdAt": .string("2024-01-0\($0)")] }
        items += [
            ["id": "p6", "blogId": "b2", "createdAt": "2024-01-03"],
            ["id": "p9", "blogId": "b1", "rank": 1, "title": "x"],
            ["id": "p10", "createdAt": "2024-01-01", "rank": 1, "title": "x"],
        ]
        try await store.put(post, items)
    }

    func ids(_ store: any ItemStore, _ condition: SortKeyCondition?, descending: Bool = false) async throws -> [String] {
        let query = ItemQuery(access: .index("byBlog", partition: "b1", sortKey: condition), descending: descending)
        return try await store.page(post, query).items.map { $0["id"]!.stringValue! }
    }

    @Test("each sort key condition, ascending and descending", arguments: StoreKind.allCases)
    func conditions(kind: StoreKind) async throws {
        try await kind.withStore(post) { store in
            try await seed(store)
            let cases: [(SortKeyCondition?, [String])] = [
                (nil, ["p1", "p2", "p3", "p4", "p5"]),
                (.eq(["2024-01-03"]), ["p3"]),
                (.lt(["2024-01-03"]), ["p1", "p2"]),
                (.le(["2024-01-03"]), ["p1", "p2", "p3"]),
                (.gt(["2024-01-03"]), ["p4", "p5"]),
                (.ge(["2024-01-03"]), ["p3", "p4", "p5"]),
                (.between(["2024-01-02"], ["2024-01-04"]), ["p2", "p3", "p4"]),
                (.between(["2024-01-04"], ["2024-01-02"]), []),
                (.beginsWith(["2024-01-0"]), ["p1", "p2", "p3", "p4", "p5"]),
                (.beginsWith(["2024-01-04"]), ["p4"]),
                (.beginsWith(["2024-02"]), []),
                (.beginsWith([""]), ["p1", "p2", "p3", "p4", "p5"]),
            ]
            for (condition, expected) in cases {
                #expect(try await ids(store, condition) == expected, "\(String(describing: condition))")
                #expect(try await ids(store, condition, descending: true) == expected.reversed(), "\(String(describing: condition)) DESC")
            }
        }
    }

    @Test("an index is sparse: items without its partition or sort key are not in it", arguments: StoreKind.allCases)
    func sparse(kind: StoreKind) async throws {
        try await kind.withStore(post) { store in
            try await seed(store)
            #expect(try await ids(store, nil) == ["p1", "p2", "p3", "p4", "p5"])
            let byRank = try await store.page(post, ItemQuery(access: .index("byBlogRank", partition: "b1", sortKey: nil)))
            #expect(byRank.items.map { $0["id"]! } == ["p9"])
            #expect(try await store.page(post, ItemQuery()).items.count == 8)
        }
    }

    @Test("beginsWith is byte-exact and case-sensitive; % and _ are plain characters", arguments: StoreKind.allCases)
    func beginsWithIsExact(kind: StoreKind) async throws {
        try await kind.withStore(post) { store in
            let titles = ["abc", "ABC", "a%c", "a_c", "abd", "ab", "日本", "日本語", "é", "e\u{301}"]
            try await store.put(post, titles.enumerated().map { i, title in
                ["id": .string("p\(i)"), "blogId": "b", "rank": 1, "title": .string(title)]
            })
            func titlesWith(_ prefix: String) async throws -> [String] {
                let query = ItemQuery(access: .index("byBlogRank", partition: "b", sortKey: .beginsWith([1, .string(prefix)])))
                return try await store.page(post, query).items.map { $0["title"]!.stringValue! }
            }
            #expect(try await titlesWith("ab") == ["ab", "abc", "abd"])
            #expect(try await titlesWith("a%") == ["a%c"])
            #expect(try await titlesWith("a_") == ["a_c"])
            #expect(try await titlesWith("A") == ["ABC"])
            #expect(try await titlesWith("日本") == ["日本", "日本語"])
            #expect(try await titlesWith("e") == ["e\u{301}"])
        }
    }

    @Test("composite sort key conditions compare the given prefix as a tuple", arguments: StoreKind.allCases)
    func compositeConditions(kind: StoreKind) async throws {
        try await kind.withStore(post) { store in
            let rows: [(Int, String)] = [(1, "a"), (1, "b"), (2, "a"), (2, "b"), (2, "c"), (3, "a")]
            try await store.put(post, rows.enumerated().map { i, row in
                ["id": .string("p\(i)"), "blogId": "b", "rank": .int(row.0), "title": .string(row.1)]
            })
            func keys(_ condition: SortKeyCondition) async throws -> [String] {
                let query = ItemQuery(access: .index("byBlogRank", partition: "b", sortKey: condition))
                return try await store.page(post, query).items.map { "\($0["rank"]!.intValue!)\($0["title"]!.stringValue!)" }
            }
            #expect(try await keys(.eq([2])) == ["2a", "2b", "2c"])
            #expect(try await keys(.eq([2, "b"])) == ["2b"])
            #expect(try await keys(.lt([2, "b"])) == ["1a", "1b", "2a"])
            #expect(try await keys(.ge([2, "b"])) == ["2b", "2c", "3a"])
            #expect(try await keys(.gt([2])) == ["3a"])
            #expect(try await keys(.le([2])) == ["1a", "1b", "2a", "2b", "2c"])
            #expect(try await keys(.between([1, "b"], [2, "b"])) == ["1b", "2a", "2b"])
            #expect(try await keys(.beginsWith([2, "b"])) == ["2b"])
        }
    }

    @Test("malformed sort key conditions are refused with what to fix", arguments: StoreKind.allCases)
    func malformedConditions(kind: StoreKind) async throws {
        try await kind.withStore(post) { store in
            try await seed(store)
            let bad: [(String?, SortKeyCondition)] = [
                ("byBlog", .eq(["2024-01-01", "extra"])),
                ("byBlog", .eq([])),
                ("byBlog", .eq([.null])),
                ("byBlogRank", .beginsWith([1])),
                ("byBlogRank", .eq(["one"])),
                (nil, .eq(["x"])),
            ]
            for (index, condition) in bad {
                await #expect(throws: AppSyncError.self, "\(condition)") {
                    try await store.page(post, ItemQuery(access: .index(index, partition: "b1", sortKey: condition)))
                }
            }
        }
    }

    @Test("within narrows the read to the given values, before the limit", arguments: StoreKind.allCases)
    func within(kind: StoreKind) async throws {
        try await kind.withStore(post) { store in
            try await seed(store)
            let query = ItemQuery(limit: 2, within: FieldValues(field: "blogId", values: ["b2", "nope"]))
            let page = try await store.page(post, query)
            #expect(page.items.map { $0["id"]! } == ["p6"])
            #expect(page.lastEvaluated == nil)
            let none = try await store.page(post, ItemQuery(within: FieldValues(field: "blogId", values: [])))
            #expect(none.items.isEmpty)
        }
    }

    @Test("random conditions, directions and limits agree with an in-memory reference", arguments: StoreKind.allCases)
    func randomAgainstReference(kind: StoreKind) async throws {
        var random = SeededRandom(seed: 7)
        try await kind.withStore(post) { store in
            let titles = ["", "a", "ab", "b", "ba"]
            var items: [Item] = []
            for i in 0..<60 {
                var item: Item = ["id": .string("p\(i)"), "blogId": .string(random.pick(["x", "y"]))]
                if random.chance(0.9) { item["rank"] = .int(random.int(in: 0...3)) }
                if random.chance(0.9) { item["title"] = .string(random.pick(titles)) }
                items.append(item)
            }
            try await store.put(post, items)

            for _ in 0..<300 {
                let partition = JSONValue.string(random.pick(["x", "y"]))
                func tuple() -> [JSONValue] {
                    random.chance(0.5) ? [.int(random.int(in: 0...3))] : [.int(random.int(in: 0...3)), .string(random.pick(titles))]
                }
                let condition: SortKeyCondition? = switch random.int(in: 0...7) {
                case 0: nil
                case 1: .eq(tuple())
                case 2: .lt(tuple())
                case 3: .le(tuple())
                case 4: .gt(tuple())
                case 5: .ge(tuple())
                case 6: .between(tuple(), tuple())
                default: .beginsWith([.int(random.int(in: 0...3)), .string(random.pick(["", "a", "b"]))])
                }
                let descending = random.chance(0.5)
                let query = ItemQuery(
                    access: .index("byBlogRank", partition: partition, sortKey: condition),
                    limit: random.int(in: 1...7), descending: descending
                )
                let got = try await store.pages(post, query).flatMap(\.items).map { $0["id"]! }
                let expected = Reference.indexQuery(items, partition: partition, condition: condition, descending: descending)
                #expect(got == expected, "\(String(describing: condition)) desc: \(descending)")
            }
        }
    }
}

/// The index semantics spelled out in Swift: partition equality, sparse, tuple conditions,
/// ordered by (rank, title, id).
enum Reference {
    static func indexQuery(_ items: [Item], partition: JSONValue, condition: SortKeyCondition?, descending: Bool) -> [JSONValue] {
        let rows = items.filter { $0["blogId"] == partition && $0["rank"] != nil && $0["title"] != nil }
        func key(_ item: Item) -> [JSONValue] { [item["rank"]!, item["title"]!, item["id"]!] }
        func compare(_ item: Item, _ values: [JSONValue]) -> Int {
            for (a, b) in zip(key(item), values) {
                let c = JSONValue.compare(a, b)!
                if c != 0 { return c }
            }
            return 0
        }
        let kept = rows.filter { item in
            switch condition {
            case nil: return true
            case .eq(let v): return compare(item, v) == 0
            case .lt(let v): return compare(item, v) < 0
            case .le(let v): return compare(item, v) <= 0
            case .gt(let v): return compare(item, v) > 0
            case .ge(let v): return compare(item, v) >= 0
            case .between(let lo, let hi): return compare(item, lo) >= 0 && compare(item, hi) <= 0
            case .beginsWith(let v):
                return item["rank"] == v[0] && item["title"]!.stringValue!.utf8.starts(with: v[1].stringValue!.utf8)
            }
        }
        let sorted = kept.sorted { a, b in
            zip(key(a), key(b)).first { JSONValue.compare($0, $1) != 0 }.map { JSONValue.compare($0, $1)! < 0 } ?? false
        }
        return (descending ? sorted.reversed() : sorted).map { $0["id"]! }
    }
}
