import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncStorage
import Testing

@Suite("Items round trip")
struct ItemRoundTripTests {
    let model = Fixtures.everything

    @Test("every field type reads back as the kind it was written", arguments: StoreKind.allCases)
    func everyFieldType(kind: StoreKind) async throws {
        try await kind.withStore(model) { store in
            let item: Item = [
                "id": "e1", "title": "Hello, 世界 😀 'quoted' \"too\"", "count": -42, "score": 2.5, "done": true,
                "day": "2024-02-29", "time": "12:30:00.000", "at": "2024-02-29T12:30:00.000Z",
                "stamp": 1_700_000_000, "email": "a@b.c", "meta": "{\"b\":[1,2],\"a\":null}",
                "phone": "+1 555 0100", "url": "https://example.com/x", "ip": "::1", "status": "ACTIVE",
                "tags": ["a", "", "b"], "counts": [1, 2, 3],
                "location": ["city": "Paris", "zip": 75001],
                "stops": [["city": "Lyon"], ["city": "Nice", "zip": 6000]],
                "ownerId": "o1",
                "_version": 3, "_deleted": false, "_lastChangedAt": 1_700_000_000_123, "_ttl": 1_700_086_400,
                "__typename": "Everything",
            ]
            try await store.put(model, [item])
            #expect(try await store.get(model, ["id": "e1"]) == item)
            #expect(try await store.get(model, ["id": "missing"]) == nil)
        }
    }

    @Test("long, empty and many text fields read back exactly, and a row never keeps another's values", arguments: StoreKind.allCases)
    func textOfEverySize(kind: StoreKind) async throws {
        try await kind.withStore(model) { store in
            // Together these pass the few kilobytes an insert copies text through on the stack.
            let long = String(repeating: "ab€", count: 2_000)
            let items: [Item] = [
                ["id": "e1", "title": .string(long), "email": .string(long + "@x"), "url": "", "phone": "+1", "ownerId": "o1"],
                ["id": "e2", "title": "", "ownerId": "o2"],
                ["id": "e3", "title": "short"],
            ]
            try await store.put(model, items)
            for item in items {
                var expected = item
                expected["_version"] = 1
                #expect(try await store.get(model, ["id": item["id"]!]) == expected)
            }
        }
    }

    @Test("null and missing fields are absent; _version defaults to 1", arguments: StoreKind.allCases)
    func nullsAreAbsent(kind: StoreKind) async throws {
        try await kind.withStore(model) { store in
            try await store.put(model, [["id": "e1", "title": nil, "done": false]])
            #expect(try await store.get(model, ["id": "e1"]) == ["id": "e1", "done": false, "_version": 1])
        }
    }

    @Test("keys outside the schema, relation fields included, are not stored", arguments: StoreKind.allCases)
    func unknownKeysIgnored(kind: StoreKind) async throws {
        try await kind.withStore(model) { store in
            try await store.put(model, [["id": "e1", "nope": 1, "owner": ["id": "o1"], "_version": 2]])
            #expect(try await store.get(model, ["id": "e1"]) == ["id": "e1", "_version": 2])
        }
    }

    @Test("numbers convert within their field type", arguments: StoreKind.allCases)
    func numberConversions(kind: StoreKind) async throws {
        try await kind.withStore(model) { store in
            try await store.put(model, [["id": "e1", "count": 7.0, "score": 3, "counts": [1, 2.5]]])
            let item = try #require(try await store.get(model, ["id": "e1"]))
            #expect(item["count"] == .int(7))
            #expect(item["score"] == .double(3))
            #expect(item["counts"] == [1, 2.5])
        }
    }

    @Test("an AWSJSON value given as JSON is stored as its text", arguments: StoreKind.allCases)
    func awsJSONAsValue(kind: StoreKind) async throws {
        try await kind.withStore(model) { store in
            try await store.put(model, [["id": "e1", "meta": ["b": 1, "a": [true]]]])
            #expect(try await store.get(model, ["id": "e1"])?["meta"] == .string("{\"a\":[true],\"b\":1}"))
        }
    }

    static let mismatches: [(String, JSONValue)] = [
        ("count", "12"), ("count", 1.5), ("score", "x"), ("done", 1),
        ("title", 5), ("tags", "a"), ("location", ["a"]), ("status", true),
    ]

    @Test("a value that does not fit its field is refused, naming the field", arguments: StoreKind.allCases)
    func mismatchRefused(kind: StoreKind) async throws {
        try await kind.withStore(model) { store throws in
            for (field, value) in Self.mismatches {
                let error = await #expect(throws: AppSyncError.self, "\(field): \(value)") {
                    try await store.put(model, [["id": "e1", field: value]])
                }
                #expect(error?.errorType == .validation)
                #expect(error?.message.contains("'\(field)'") == true)
            }
            #expect(try await store.get(model, ["id": "e1"]) == nil)
            #expect(try await store.counts(model) == [0, 0])
        }
    }

    @Test("text holding U+0000: SQLite keeps it, PostgreSQL (which cannot store it) refuses it naming the field", arguments: StoreKind.allCases)
    func nulInText(kind: StoreKind) async throws {
        try await kind.withStore(model) { store in
            let item: Item = ["id": "e1", "title": "nul\u{0}here", "_version": 1]
            switch kind {
            case .sqlite:
                try await store.put(model, [item])
                #expect(try await store.get(model, ["id": "e1"]) == item)
            case .postgres:
                let error = await #expect(throws: AppSyncError.self) { try await store.put(model, [item]) }
                #expect(error?.errorType == .validation)
                #expect(error?.message.contains("'title'") == true)
                #expect(try await store.get(model, ["id": "e1"]) == nil)
            }
        }
    }

    @Test("an item without its key is refused", arguments: StoreKind.allCases)
    func missingKey(kind: StoreKind) async throws {
        try await kind.withStore(model) { store in
            let error = await #expect(throws: AppSyncError.self) {
                try await store.put(model, [["title": "no id"]])
            }
            #expect(error?.message.contains("'id'") == true)
        }
    }

    @Test("a model outside the store's schema is refused", arguments: StoreKind.allCases)
    func foreignModel(kind: StoreKind) async throws {
        try await kind.withStore(model) { store in
            await #expect(throws: AppSyncError.self) {
                try await store.get(Fixtures.post, ["id": "1"])
            }
        }
    }
}

@Suite("Composite primary keys")
struct CompositeKeyTests {
    let model = Fixtures.reading

    @Test("get, replace and remove by every key field", arguments: StoreKind.allCases)
    func getPutRemove(kind: StoreKind) async throws {
        try await kind.withStore(model) { store in
            try await store.put(model, [
                ["sensor": "s1", "day": "2024-01-01", "seq": 1, "value": 1.5],
                ["sensor": "s1", "day": "2024-01-01", "seq": 2, "value": 2.5],
                ["sensor": "s1", "day": "2024-01-02", "seq": 1, "value": 3.5],
            ])
            let key: Item = ["sensor": "s1", "day": "2024-01-01", "seq": 2]
            #expect(try await store.get(model, key)?["value"] == 2.5)

            try await store.put(model, [key.merging(["value": 9.5]) { $1 }])
            #expect(try await store.get(model, key)?["value"] == 9.5)
            #expect(try await store.page(model, ItemQuery()).items.count == 3)

            let removed = try await store.write { tx in try tx.remove(model, key: key) }
            let removedAgain = try await store.write { tx in try tx.remove(model, key: key) }
            #expect(removed && !removedAgain)
            #expect(try await store.get(model, key) == nil)
            #expect(try await store.get(model, ["sensor": "s1", "day": "2024-01-01", "seq": 1]) != nil)
        }
    }

    @Test("a partial key is refused, naming the missing field", arguments: StoreKind.allCases)
    func partialKey(kind: StoreKind) async throws {
        try await kind.withStore(model) { store in
            let error = await #expect(throws: AppSyncError.self) {
                try await store.get(model, ["sensor": "s1", "day": "2024-01-01"])
            }
            #expect(error?.message.contains("'seq'") == true)
        }
    }

    @Test("querying the primary key orders by the sort key fields", arguments: StoreKind.allCases)
    func primaryKeyQuery(kind: StoreKind) async throws {
        try await kind.withStore(model) { store in
            try await store.put(model, [
                ["sensor": "s1", "day": "2024-01-02", "seq": 1],
                ["sensor": "s1", "day": "2024-01-01", "seq": 10],
                ["sensor": "s1", "day": "2024-01-01", "seq": 2],
                ["sensor": "s2", "day": "2024-01-01", "seq": 1],
            ])
            let page = try await store.page(model, ItemQuery(access: .index(nil, partition: "s1", sortKey: .eq(["2024-01-01"]))))
            #expect(page.items.map { $0["seq"] } == [2, 10])
            let all = try await store.page(model, ItemQuery(access: .index(nil, partition: "s1", sortKey: nil), descending: true))
            #expect(all.items.map { $0["day"]! } == ["2024-01-02", "2024-01-01", "2024-01-01"])
        }
    }
}
