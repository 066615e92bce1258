import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncStorage
import Testing

@Suite("Schemas a store opens")
struct SchemaGrowthTests {
    let post = Fixtures.post

    @Test("gaining a field, an index and a model keeps the stored items, the sync log and the clock", arguments: StoreKind.allCases)
    func schemaGrows(kind: StoreKind) async throws {
        let place = try kind.place()
        var old = post
        old.fields.removeAll { $0.name == "rank" }
        old.indexes = [old.indexes[0]]
        try await place.withStore(old) { store in
            try await store.change(old, [["id": "p1", "blogId": "b1", "createdAt": "2024-01-01", "title": "old"]], now: 10)
        }
        try await place.withStore(post, Fixtures.reading) { store in
            #expect(try await store.get(post, ["id": "p1"])
                == ["id": "p1", "blogId": "b1", "createdAt": "2024-01-01", "title": "old", "_version": 1, "_lastChangedAt": 10])
            try await store.change(post, [["id": "p2", "blogId": "b1", "rank": 5, "title": "new"]], now: 0)
            #expect(try await store.stamp(0) == 12)
            let byRank = try await store.page(post, ItemQuery(access: .index("byBlogRank", partition: "b1", sortKey: .eq([5]))))
            #expect(byRank.items.map { $0["id"]! } == ["p2"])
            #expect(try await store.deltaPage(post, DeltaQuery(since: 0)).items.map { $0["id"]! } == ["p1", "p2"])
            try await store.put(Fixtures.reading, [["sensor": "s", "day": "d", "seq": 1]])
        }
    }

    /// SQLite's table names ignore case, so `DeltaSync_Clock` is the clock's table there;
    /// PostgreSQL's quoted names do not, so there it is a model like any other.
    @Test("a model may not take a sync log table's name", arguments: StoreKind.allCases)
    func reservedNames(kind: StoreKind) async throws {
        for name in ["deltasync_delta", "deltasync_conflicts", "deltasync_clock"] {
            let model = Fixtures.model(name, [Fixtures.field("id", .id)])
            await #expect(throws: AppSyncError.self, "\(name)") { try await kind.withStore(model) { _ in } }
        }
        let otherCase = Fixtures.model("DeltaSync_Clock", [Fixtures.field("id", .id)])
        switch kind {
        case .sqlite:
            await #expect(throws: AppSyncError.self) { try await kind.withStore(otherCase) { _ in } }
        case .postgres:
            try await kind.withStore(otherCase) { store in
                try await store.put(otherCase, [["id": "1"]])
                #expect(try await store.stamp(5) == 5)
            }
        }
    }
}
