import DeltaSyncCore
import DeltaSyncSQLiteStore
import DeltaSyncSchema
import DeltaSyncStorage
import GRDB
import Testing

@Suite("Delta log")
struct DeltaLogTests {
    let post = Fixtures.post
    let reading = Fixtures.reading

    /// Ten changes of posts p0...p9 stamped 1001...1010, ranks 0...9.
    func seed(_ store: any ItemStore) async throws {
        let items: [Item] = (0..<10).map { i in ["id": .string("p\(i)"), "rank": .int(i), "_version": 1] }
        try await store.change(post, items, now: 1_001)
    }

    @Test("pages follow the change order and resume from the cursor", arguments: StoreKind.allCases, [1, 3, 4, 10, 11])
    func paging(kind: StoreKind, limit: Int) async throws {
        try await kind.withStore(post, reading) { store in
            try await seed(store)
            let pages = try await store.deltaPages(post, DeltaQuery(since: 0, limit: limit))
            #expect(pages.flatMap(\.items).map { $0["id"]! } == (0..<10).map { .string("p\($0)") })
            #expect(pages.dropLast().allSatisfy { $0.scanned == limit && $0.lastEvaluated != nil })
            #expect(pages.last?.lastEvaluated == nil)
            #expect(pages.map(\.scanned).reduce(0, +) == 10)
        }
    }

    @Test("the cursor is the last row's change time and sequence number", arguments: StoreKind.allCases)
    func cursorShape(kind: StoreKind) async throws {
        try await kind.withStore(post, reading) { store in
            try await seed(store)
            let page = try await store.deltaPage(post, DeltaQuery(since: 0, limit: 2))
            #expect(page.lastEvaluated == [1_002, 2])
        }
    }

    @Test("only changes strictly after since are read, and paging keeps to them", arguments: StoreKind.allCases)
    func since(kind: StoreKind) async throws {
        try await kind.withStore(post, reading) { store in
            try await seed(store)
            let all = try await store.deltaPages(post, DeltaQuery(since: 1_007, limit: 1))
            #expect(all.flatMap(\.items).map { $0["id"]! } == ["p7", "p8", "p9"])
            #expect(all.map(\.scanned).reduce(0, +) == 3)
            #expect(try await store.deltaPage(post, DeltaQuery(since: 1_010)) == ItemPage(items: [], lastEvaluated: nil, scanned: 0))
            // A cursor from before the window does not widen it.
            let early = try await store.deltaPage(post, DeltaQuery(since: 1_008, after: [1_001, 1]))
            #expect(early.items.map { $0["id"]! } == ["p8", "p9"])
        }
    }

    @Test("the filter applies to evaluated rows: pages may hold fewer items than the limit", arguments: StoreKind.allCases)
    func filter(kind: StoreKind) async throws {
        try await kind.withStore(post, reading) { store in
            try await seed(store)
            let query = DeltaQuery(since: 0, filter: .field("rank", .ge(6)), limit: 4)
            let pages = try await store.deltaPages(post, query)
            #expect(pages.map { $0.items.count } == [0, 2, 2])
            #expect(pages.map(\.scanned) == [4, 4, 2])
            #expect(pages.flatMap(\.items).map { $0["id"]! } == ["p6", "p7", "p8", "p9"])
        }
    }

    @Test("changes with equal times page apart by their sequence number", arguments: StoreKind.allCases)
    func ties(kind: StoreKind) async throws {
        try await kind.withStore(post) { store in
            try await store.write { tx in
                for id in ["a", "b", "c"] { try tx.appendDelta(post, item: ["id": .string(id)], changedAt: 500) }
                try tx.appendDelta(post, item: ["id": "first"], changedAt: 400)
            }
            let pages = try await store.deltaPages(post, DeltaQuery(since: 0, limit: 1))
            #expect(pages.flatMap(\.items).map { $0["id"]! } == ["first", "a", "b", "c"])
        }
    }

    @Test("every change of an item is logged, tombstones included, each as the item then was", arguments: StoreKind.allCases)
    func history(kind: StoreKind) async throws {
        try await kind.withStore(post) { store in
            try await store.change(post, [["id": "p", "title": "one", "_version": 1]], now: 10)
            try await store.change(post, [["id": "p", "title": "two", "_version": 2]], now: 10)
            try await store.change(post, [["id": "p", "title": "two", "_version": 3, "_deleted": true, "_ttl": 99]], now: 10)
            let items = try await store.deltaPage(post, DeltaQuery(since: 0)).items
            #expect(items.map { $0["_version"]! } == [1, 2, 3])
            #expect(items.map { $0["_lastChangedAt"]! } == [10, 11, 12])
            #expect(items.last == ["id": "p", "title": "two", "_version": 3, "_deleted": true, "_ttl": 99, "_lastChangedAt": 12])
            #expect(try await store.get(post, ["id": "p"]) == items.last)
        }
    }

    @Test("a delta item keeps every value's kind, as get returns it", arguments: StoreKind.allCases)
    func kinds(kind: StoreKind) async throws {
        let model = Fixtures.everything
        try await kind.withStore(model) { store in
            let item: Item = [
                "id": "e1", "title": "t", "count": 3, "score": 2.0, "done": false, "stamp": 1_700_000_000,
                "meta": #"{"a":1}"#, "tags": ["x", "y"], "counts": [1, 2], "status": "DONE",
                "location": ["city": "Oslo", "zip": 150], "stops": [["city": "Bergen", "zip": 5003]],
                "_version": 4, "_deleted": false,
            ]
            try await store.change(model, [item], now: 1)
            let delta = try #require(try await store.deltaPage(model, DeltaQuery(since: 0)).items.first)
            #expect(delta == (try await store.get(model, ["id": "e1"])))
            #expect(delta["score"] == .double(2.0))
            #expect(delta["count"] == .int(3))
        }
    }

    @Test("composite keys are logged; an item without its key is refused", arguments: StoreKind.allCases)
    func compositeKey(kind: StoreKind) async throws {
        try await kind.withStore(post, reading) { store in
            try await seed(store)
            try await store.change(reading, [["sensor": "s", "day": "2024-01-01", "seq": 1, "value": 0.5]], now: 1)
            let page = try await store.deltaPage(reading, DeltaQuery(since: 0))
            #expect(page.items.map { $0["value"]! } == [0.5])
            await #expect(throws: AppSyncError.self) {
                try await store.write { tx in try tx.appendDelta(reading, item: ["sensor": "s", "seq": 2], changedAt: 5) }
            }
        }
    }

    @Test("a foreign cursor or a limit below 1 is an invalid argument", arguments: StoreKind.allCases)
    func invalidArguments(kind: StoreKind) async throws {
        try await kind.withStore(post, reading) { store in
            try await seed(store)
            for query in [
                DeltaQuery(since: 0, after: ["p1"]), DeltaQuery(since: 0, after: [1, 2, 3]),
                DeltaQuery(since: 0, after: [1.5, 2]), DeltaQuery(since: 0, limit: 0),
            ] {
                let error = await #expect(throws: AppSyncError.self) { try await store.deltaPage(post, query) }
                #expect(error?.errorType == .invalidArgument)
            }
        }
    }

    @Test("deltaCount and latestDeltas read the log; removeSyncLog empties one model's or every model's", arguments: StoreKind.allCases)
    func countLatestAndRemove(kind: StoreKind) async throws {
        try await kind.withStore(post, reading) { store in
            try await seed(store)
            try await store.change(reading, [["sensor": "s", "day": "d", "seq": 1]], now: 0)
            #expect(try await store.read { tx in try tx.deltaCount(of: post) } == 10)
            #expect(try await store.read { tx in try tx.latestDeltas(post, limit: 2) }.map { $0["id"]! } == ["p9", "p8"])
            try await store.write { tx in try tx.removeSyncLog(of: "Post") }
            #expect(try await store.read { tx in try tx.deltaCount(of: post) } == 0)
            #expect(try await store.read { tx in try tx.deltaCount(of: reading) } == 1)
            try await store.write { tx in try tx.removeSyncLog(of: nil) }
            #expect(try await store.read { tx in try tx.deltaCount(of: reading) } == 0)
        }
    }

    /// SQLite only: it reads SQLite's query plans (and its 100,000 rows would make it the
    /// slowest test on PostgreSQL).
    @Test("reading a window costs the changes in it, not the log's size (SQLite)")
    func costFollowsChanges() async throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("app.sqlite")
        let store = try SQLiteItemStore(location: .file(path), schema: Fixtures.schema(post, reading))
        // 100,000 rows outside the window: another model's changes, and older changes of posts.
        try await store.write { tx in
            for i in 0..<50_000 {
                let item: Item = ["sensor": "s", "day": "d", "seq": .int(i)]
                try tx.appendDelta(reading, item: item, changedAt: tx.stampChange(now: 1))
                try tx.appendDelta(post, item: ["id": .string("old\(i)")], changedAt: tx.stampChange(now: 1))
            }
        }
        let since = try await store.stamp(0)
        let recent: [Item] = (0..<25).map { ["id": .string("new\($0)"), "rank": .int($0)] }
        try await store.change(post, recent, now: 0)
        try await store.write { tx in
            for i in 0..<1_000 { try tx.appendDelta(reading, item: ["sensor": "t", "day": "d", "seq": .int(i)], changedAt: tx.stampChange(now: 0)) }
        }

        let pages = try await store.deltaPages(post, DeltaQuery(since: since, limit: 10))
        #expect(pages.map(\.scanned) == [10, 10, 5])
        #expect(pages.flatMap(\.items).count == 25)
        let whole = try await store.deltaPage(post, DeltaQuery(since: since, filter: .field("rank", .lt(3)), limit: 100))
        #expect(whole.scanned == 25)
        #expect(whole.items.count == 3)

        // SQLite reads them through an index range (the statements `deltas` runs), not a scan.
        let db = try DatabaseQueue(path: path)
        for condition in ["changedAt > 5", "(changedAt, seq) > (5, 7)"] {
            let sql = "SELECT seq, changedAt, item FROM deltasync_delta WHERE model = 'Post' AND \(condition) ORDER BY changedAt, seq LIMIT 10"
            let plan = try await db.read { db in
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql).map { $0["detail"] as String }
            }
            #expect(plan == ["SEARCH deltasync_delta USING INDEX deltasync_delta_by_change (model=? AND changedAt>?)"])
        }
    }
}
