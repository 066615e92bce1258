import DeltaSyncCore
import DeltaSyncSchema
@testable import DeltaSyncSQLite
import DeltaSyncTestSupport
import GRDB
import Testing

/// ``ModelTable`` reads and writes through SQLite's C API for speed; GRDB's own reading and
/// writing is the reference it must agree with, on both layouts, on seeded random items.
@Suite struct ModelTableTests {
    static let schema = try! AmplifySchema.parse(source: """
        enum Mood { HAPPY SAD }
        type Place { name: String lat: Float }
        type Note @model {
          id: ID!
          title: String!
          count: Int
          score: Float
          done: Boolean
          tags: [String]
          mood: Mood
          place: Place
          extra: AWSJSON
          at: AWSTimestamp
        }
        type Pair @model {
          owner: ID! @primaryKey(sortKeyFields: ["slot"])
          slot: Int!
          label: String
        }
        """)

    static func table(_ name: String) throws -> ModelTable { try ModelTable(schema.model(named: name)!) }

    /// A random note: every optional field sometimes absent, text with quotes, escapes and
    /// non-ASCII, numbers at the edges.
    static func note(_ n: Int, _ random: inout SeededRandom) -> Item {
        let texts = ["plain", "with \"quotes\"", "tab\tand\nnewline", "ünïcödé ✓", "", "emoji 🧪", String(repeating: "x", count: 300)]
        var item: Item = ["id": .string("n\(n)"), "title": .string(random.pick(texts))]
        if random.chance(0.7) { item["count"] = .int(random.pick([0, -1, 42, Int(Int32.max), Int.max, Int.min])) }
        if random.chance(0.7) { item["score"] = .double(random.pick([0.5, -1e300, 3.25, 1e-9])) }
        if random.chance(0.7) { item["done"] = .bool(random.chance(0.5)) }
        if random.chance(0.7) { item["tags"] = .array((0..<random.int(in: 0...3)).map { _ in .string(random.pick(texts)) }) }
        if random.chance(0.7) { item["mood"] = .string(random.pick(["HAPPY", "SAD"])) }
        if random.chance(0.7) { item["place"] = ["name": .string(random.pick(texts)), "lat": .double(51.5)] }
        if random.chance(0.5) { item["extra"] = .string(#"{"a":[1,2,{"b":null}]}"#) }
        if random.chance(0.7) { item["at"] = .int(1_763_900_000 + n) }
        if random.chance(0.5) { item["_version"] = .int(random.int(in: 1...9)) }
        if random.chance(0.5) { item["_lastChangedAt"] = .int(1_763_900_000_000 + n) }
        if random.chance(0.3) { item["_deleted"] = .bool(random.chance(0.5)) }
        return item
    }

    /// What the table gives back for `item`: `_version` defaults to 1.
    static func stored(_ item: Item) -> Item {
        var stored = item
        if stored["_version"] == nil { stored["_version"] = 1 }
        return stored
    }

    static func database(_ table: ModelTable, layout: ModelTable.Layout) throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: table.createTableSQL(layout: layout))
            for index in table.indexes.values { try db.execute(sql: table.createIndexSQL(index, layout: layout)) }
        }
        return queue
    }

    /// An empty `Note` table in `layout`, and 300 random notes for it.
    static func notes(layout: ModelTable.Layout, seed: UInt64) throws -> (ModelTable, DatabaseQueue, [Item]) {
        let table = try Self.table("Note")
        var random = SeededRandom(seed: seed)
        return (table, try database(table, layout: layout), (0..<300).map { note($0, &random) })
    }

    @Test(arguments: [ModelTable.Layout.clusteredByKey, .rowid])
    func writtenByTheTableReadByGRDB(layout: ModelTable.Layout) throws {
        let (table, queue, items) = try Self.notes(layout: layout, seed: 18)
        try queue.write { db in
            for item in items { try table.put(item, in: db) }
        }
        try queue.read { db in
            for item in items {
                let row = try #require(try Row.fetchOne(db, sql: table.selectByKeySQL, arguments: [item["id"]!.stringValue!]))
                for (index, column) in table.columns.enumerated() {
                    let expected = try table.encode(Self.stored(item)[column.name] ?? .null, column: index)
                    #expect(row[column.name] as DatabaseValue == expected, "\(column.name) of \(item)")
                }
            }
        }
    }

    @Test(arguments: [ModelTable.Layout.clusteredByKey, .rowid])
    func writtenByGRDBReadByTheTable(layout: ModelTable.Layout) throws {
        let (table, queue, items) = try Self.notes(layout: layout, seed: 19)
        try queue.write { db in
            for item in items {
                let values = try table.columns.indices.map { try table.encode(Self.stored(item)[table.columns[$0].name] ?? .null, column: $0) }
                try db.execute(sql: table.insertSQL, arguments: StatementArguments(values))
            }
        }
        try queue.read { db in
            for item in items {
                let read = try #require(try table.fetch(key: ["id": item["id"]!], in: db))
                #expect(read == Self.stored(item).filter { !$0.value.isNull })
            }
        }
    }

    @Test func columnNamesWithTheSameFingerprintAreToldApart() throws {
        // Same length, first and last byte: one fingerprint for all of them.
        let names = ["a1z", "a2z", "a3z", "a4z", "a5z", "a6z", "a7z", "a8z", "a9z"]
        #expect(Set(names.map(ColumnLookup.fingerprint)).count == 1)
        let lookup = ColumnLookup(names)
        for (position, name) in names.enumerated() { #expect(lookup.position(of: name) == position) }
        #expect(lookup.position(of: "a0z") == nil, "an unknown name with the same fingerprint")
        #expect(lookup.position(of: "missing") == nil)
    }

    @Test func batchedInsertsTellNewRowsFromKnownOnes() throws {
        let table = try Self.table("Pair")
        let queue = try Self.database(table, layout: .rowid)
        try queue.write { db in
            for slot in [1, 3] { try table.put(["owner": "o", "slot": .int(slot), "label": "kept"], in: db) }
            let batch: [Item] = (0..<5).map { ["owner": "o", "slot": .int($0), "label": "new"] }
            let statement = try db.makeStatement(sql: table.insertIfAbsentSQL(rows: batch.count))
            #expect(try table.insertIfAbsent(batch, using: statement, in: db) == [true, false, true, false, true])
            // All new, then all known: the answers that need no second look.
            let fresh: [Item] = (5..<7).map { ["owner": "o", "slot": .int($0)] }
            let twoRows = try db.makeStatement(sql: table.insertIfAbsentSQL(rows: 2))
            #expect(try table.insertIfAbsent(fresh, using: twoRows, in: db) == [true, true])
            #expect(try table.insertIfAbsent(fresh, using: twoRows, in: db) == [false, false])
            let labels = try String.fetchAll(db, sql: "SELECT label FROM \(table.quotedName) WHERE slot IN (1, 3) ORDER BY slot")
            #expect(labels == ["kept", "kept"], "known rows are left alone")
        }
    }
}
