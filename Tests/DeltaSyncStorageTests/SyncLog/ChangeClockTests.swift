import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncStorage
import Testing

@Suite("Change clock")
struct ChangeClockTests {
    let post = Fixtures.post

    struct Abort: Error {}

    @Test("stamps follow the wall clock and never repeat or go back when it does")
    func monotonic() async throws {
        let store = try Fixtures.memoryStore(post)
        #expect(try await store.stamp(1_000) == 1_000)
        #expect(try await store.stamp(1_000) == 1_001)
        #expect(try await store.stamp(500) == 1_002)
        #expect(try await store.stamp(1_002) == 1_003)
        #expect(try await store.stamp(5_000) == 5_000)
        let inOneWrite = try await store.write { tx in try (0..<3).map { _ in try tx.stampChange(now: 0) } }
        #expect(inOneWrite == [5_001, 5_002, 5_003])
    }

    @Test("the clock survives closing and reopening the file")
    func survivesReopen() async throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("app.sqlite")
        let schema = Fixtures.schema(post)
        do {
            let store = try SQLiteItemStore(location: .file(path), schema: schema)
            #expect(try await store.stamp(10_000) == 10_000)
        }
        let store = try SQLiteItemStore(location: .file(path), schema: schema)
        #expect(try await store.stamp(1) == 10_001)
    }

    @Test("concurrent writers get distinct stamps")
    func concurrentStamps() async throws {
        let dir = try TemporaryDirectory()
        let store = try SQLiteItemStore(location: .file(dir.file("app.sqlite")), schema: Fixtures.schema(post))
        let stamps = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<100 { group.addTask { try await store.stamp(42) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(stamps.sorted() == Array(42..<142))
    }

    @Test("a rolled-back write leaves no delta row and does not advance the clock")
    func rollback() async throws {
        let store = try Fixtures.memoryStore(post)
        try await store.change(post, [["id": "p1", "title": "kept"]], now: 100)
        await #expect(throws: Abort.self) {
            try await store.write { tx in
                let changedAt = try tx.stampChange(now: 200)
                let item: Item = ["id": "p2", "title": "lost", "_lastChangedAt": .int(changedAt)]
                try tx.put(post, item)
                try tx.appendDelta(post, item: item, changedAt: changedAt)
                throw Abort()
            }
        }
        let page = try await store.deltaPage(post, DeltaQuery(since: 0))
        #expect(page.items.map { $0["id"]! } == ["p1"])
        #expect(try await store.get(post, ["id": "p2"]) == nil)
        #expect(try await store.stamp(0) == 101)
    }
}
