import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncStorage
import Testing

/// `ItemStore.insert`: what a create mutation does, on every store.
@Suite("Insert")
struct InsertTests {
    let post = Fixtures.post

    func draft(_ id: String, title: String) -> @Sendable (Int) -> Item {
        { changedAt in ["id": .string(id), "title": .string(title), "_version": 1, "_lastChangedAt": .int(changedAt)] }
    }

    @Test("an insert stores the item and its delta at the change time it was built with", arguments: StoreKind.allCases)
    func storesItemAndDelta(kind: StoreKind) async throws {
        try await kind.withStore(post) { store in
            let created = try #require(try await store.insert(post, key: ["id": "p1"], now: 5_000, draft("p1", title: "Hello")))
            let changedAt = try #require(created["_lastChangedAt"]?.intValue)
            #expect(changedAt >= 5_000)
            #expect(try await store.get(post, ["id": "p1"]) == created)
            let deltas = try await store.deltaPage(post, DeltaQuery(since: 0))
            #expect(deltas.items == [created])
            #expect(deltas.items.first?["_version"] == 1)
        }
    }

    @Test("an insert of a taken key, a tombstone's too, returns nil and changes nothing", arguments: StoreKind.allCases)
    func takenKey(kind: StoreKind) async throws {
        try await kind.withStore(post) { store in
            try await store.change(post, [["id": "live", "title": "old", "_version": 3]], now: 1_000)
            try await store.change(post, [["id": "gone", "title": "old", "_version": 2, "_deleted": true]], now: 1_000)
            let before = try await store.deltaPages(post, DeltaQuery(since: 0)).flatMap(\.items)
            for id in ["live", "gone"] {
                #expect(try await store.insert(post, key: ["id": .string(id)], now: 2_000, draft(id, title: "new")) == nil)
                #expect(try await store.get(post, ["id": .string(id)])?["title"] == "old")
            }
            #expect(try await store.deltaPages(post, DeltaQuery(since: 0)).flatMap(\.items) == before)
        }
    }

    @Test("an insert stamps above a sync's stamp even when its clock is behind", arguments: StoreKind.allCases)
    func aboveTheSyncStamp(kind: StoreKind) async throws {
        try await kind.withStore(post) { store in
            let startedAt = try await store.stamp(90_000)
            let created = try await store.insert(post, key: ["id": "p1"], now: 1_000, draft("p1", title: "late"))
            #expect(try #require(created?["_lastChangedAt"]?.intValue) > startedAt)
            // The next delta sync from that startedAt returns it.
            #expect(try await store.deltaPage(post, DeltaQuery(since: startedAt)).items.map { $0["id"] } == ["p1"])
        }
    }
}
