import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncStorage
import DeltaSyncTestSupport
import Testing

/// `query(_:_:fields:rows:)` is how a page is written as JSON without building its items: each
/// field read from the row must be what the item would have held, and written as
/// `JSONWriter` writes that value. The item path is the oracle.
@Suite("Stored rows")
struct StoredRowTests {
    let model = Fixtures.everything
    /// Every stored field, the metadata, a relation and a name no column has.
    var fields: [String] { model.fields.map(\.name) + ["_version", "_deleted", "_lastChangedAt", "__typename", "nope"] }

    @Test("each field of a row reads and writes as the item's value, for every stored kind", arguments: StoreKind.allCases)
    func fieldsAsTheItem(kind: StoreKind) async throws {
        try await kind.withStore(model) { store in
            var random = SeededRandom(seed: 42)
            let items = (0..<200).map { Self.randomItem($0, using: &random) }
            try await store.put(model, items)
            let (viaItems, viaRows) = try await store.read { tx in
                var viaItems: [Item] = []
                _ = try tx.query(model, ItemQuery(limit: 500)) { viaItems.append($0) }
                var viaRows: [(item: Item, values: [JSONValue?], json: [[UInt8]?])] = []
                let fields = fields
                _ = try tx.query(model, ItemQuery(limit: 500), fields: fields) { row in
                    let json = fields.indices.map { slot -> [UInt8]? in
                        var out: [UInt8] = []
                        let written = row.writeJSON(at: slot, into: &out)
                        return written ? out : (out.isEmpty ? nil : [])
                    }
                    viaRows.append((row.item(), fields.indices.map { row.value(at: $0) }, json))
                }
                return (viaItems, viaRows)
            }
            try #require(viaRows.count == items.count)
            for (item, row) in zip(viaItems, viaRows) {
                #expect(row.item == item)
                for (slot, field) in fields.enumerated() {
                    let value = item[field].flatMap { $0.isNull ? nil : $0 }
                    #expect(row.values[slot] == value, "\(field) of \(item["id"] ?? nil)")
                    #expect(row.json[slot] == value.map(JSONWriter.bytes), "\(field) of \(item["id"] ?? nil)")
                }
            }
        }
    }

    /// An item with each field present or not, text with quotes, controls and non-ASCII.
    static func randomItem(_ n: Int, using random: inout SeededRandom) -> Item {
        func text() -> JSONValue {
            let pieces = ["a", "Z", "\"", "\\", "\n", "\u{1}", "\u{1F}", "é", "世界", "😀", " ", "/", "\u{7F}", "\u{2028}"]
            return .string((0..<Int.random(in: 0...12, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined())
        }
        var item: Item = ["id": .string("e\(n)")]
        let candidates: [(String, JSONValue)] = [
            ("title", text()), ("count", .int([0, -1, Int.max, Int.min, 42].randomElement(using: &random)!)),
            ("score", .double([0.5, -2.25, 1e20, 3].randomElement(using: &random)!)), ("done", .bool(Bool.random(using: &random))),
            ("day", "2024-02-29"), ("at", "2024-02-29T12:30:00.000Z"), ("stamp", 1_700_000_000), ("email", text()),
            ("meta", Bool.random(using: &random) ? "{\"b\":[1,2]}" : ["k": text()]), ("status", "ACTIVE"),
            ("tags", [text(), text()]), ("counts", [1, 2]), ("location", ["city": text(), "zip": 75001]),
            ("stops", [["city": "Lyon"]]), ("ownerId", text()), ("_version", .int(Int.random(in: 1...9, using: &random))),
            ("_deleted", .bool(Bool.random(using: &random))), ("_lastChangedAt", 1_700_000_000_123),
        ]
        for (field, value) in candidates where Int.random(in: 0..<4, using: &random) > 0 { item[field] = value }
        return item
    }
}
