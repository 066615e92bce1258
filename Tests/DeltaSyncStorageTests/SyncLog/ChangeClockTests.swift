import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncStorage
import Testing

@Suite("Change clock")
struct ChangeClockTests {
    let post = Fixtures.post

    struct Abort: Error {}

    @Test("stamps follow the wall clock and never repeat or go back when it does", arguments: StoreKind.allCases)
    func monotonic(kind: StoreKind) async throws {
        try await kind.withStore(post) { store in
            #expect(try await store.stamp(1_000) == 1_000)
            #expect(try await store.stamp(1_000) == 1_001)
            #expect(try await store.stamp(500) == 1_002)
            #expect(try await store.stamp(1_002) == 1_003)
            #expect(try await store.stamp(5_000) == 5_000)
            let inOneWrite = try await store.write { tx in try (0..<3).map { _ in try tx.stampChange(now: 0) } }
            #expect(inOneWrite == [5_001, 5_002, 5_003])
            #expect(try await store.read { tx in try tx.changeClock() } == 5_003)
        }
    }

    @Test("the clock survives closing and reopening the store", arguments: StoreKind.allCases)
    func survivesReopen(kind: StoreKind) async throws {
        let place = try kind.place()
        try await place.withStore(post) { store throws in
            #expect(try await store.stamp(10_000) == 10_000)
        }
        try await place.withStore(post) { store throws in
            #expect(try await store.stamp(1) == 10_001)
        }
    }

    @Test("concurrent writers get distinct stamps", arguments: StoreKind.allCases)
    func concurrentStamps(kind: StoreKind) async throws {
        try await kind.place().withStore(post) { store in
            let stamps = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<100 { group.addTask { try await store.stamp(42) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(stamps.sorted() == Array(42..<142))
        }
    }

    @Test("a rolled-back write leaves no delta row and does not advance the clock", arguments: StoreKind.allCases)
    func rollback(kind: StoreKind) async throws {
        try await kind.withStore(post) { store in
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
}
