import DeltaSyncCore
import DeltaSyncSQLiteStore
import DeltaSyncSchema
import DeltaSyncStorage
import Foundation
import Testing

/// SQLite only: what a database file keeps across closing, a crash and schema changes (the
/// contract tests run on every store in `SchemaGrowthTests` and the others).
@Suite("SQLite files")
struct PersistenceTests {
    let post = Fixtures.post

    func schema(_ models: ModelSchema...) -> AmplifySchema { AmplifySchema(models: models, enums: [], nonModels: []) }

    @Test("items survive closing and reopening; the parent directory is created")
    func reopen() async throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("nested/deeper/app.sqlite")
        do {
            let store = try SQLiteItemStore(location: .file(path), schema: schema(post))
            try await store.put(post, [["id": "p1", "blogId": "b1", "title": "kept"]])
        }
        let store = try SQLiteItemStore(location: .file(path), schema: schema(post))
        #expect(try await store.get(post, ["id": "p1"])?["title"] == "kept")
    }

    @Test("a write that returned is in the files before the store closes, as after kill -9")
    func durableBeforeClose() async throws {
        let dir = try TemporaryDirectory()
        let store = try SQLiteItemStore(location: .file(dir.file("live/app.sqlite")), schema: schema(post))
        try await store.put(post, [["id": "p1", "title": "written"]])

        // Copy what the operating system holds right now, as a killed process leaves it.
        let crash = dir.file("crash")
        try FileManager.default.createDirectory(atPath: crash, withIntermediateDirectories: true)
        for suffix in ["", "-wal"] {
            try FileManager.default.copyItem(atPath: dir.file("live/app.sqlite" + suffix), toPath: crash + "/app.sqlite" + suffix)
        }
        let recovered = try SQLiteItemStore(location: .file(crash + "/app.sqlite"), schema: schema(post))
        #expect(try await recovered.get(post, ["id": "p1"])?["title"] == "written")
        _ = store
    }

    @Test("a field whose type changed keeps its values, converted where SQLite can")
    func fieldTypeChanges() async throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("app.sqlite")
        do {
            let store = try SQLiteItemStore(location: .file(path), schema: schema(post))
            try await store.put(post, [["id": "p1", "blogId": "b1", "rank": 3, "title": "12"], ["id": "p2", "title": "twelve"]])
        }
        var changed = post
        changed.fields = changed.fields.map { field in
            var field = field
            if field.name == "rank" { field.type = .scalar(.string) }
            if field.name == "title" { field.type = .scalar(.int) }
            return field
        }
        let store = try SQLiteItemStore(location: .file(path), schema: schema(changed))
        #expect(try await store.get(changed, ["id": "p1"])?["rank"] == "3")
        #expect(try await store.get(changed, ["id": "p1"])?["title"] == 12)
        #expect(try await store.get(changed, ["id": "p2"])?["title"] == "twelve")
        let byRank = try await store.page(changed, ItemQuery(access: .index("byBlogRank", partition: "b1", sortKey: .eq(["3"]))))
        #expect(byRank.items.map { $0["id"]! } == ["p1"])
    }

    @Test("a primary key change that stored items cannot follow is refused and changes nothing")
    func keyChangeRefused() async throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("app.sqlite")
        do {
            let store = try SQLiteItemStore(location: .file(path), schema: schema(post))
            try await store.put(post, [["id": "p1", "blogId": "b1"], ["id": "p2", "blogId": "b1"]])
        }
        var rekeyed = post
        rekeyed.primaryKey = PrimaryKey(partitionField: "blogId")
        #expect(throws: AppSyncError.self) { try SQLiteItemStore(location: .file(path), schema: schema(rekeyed)) }
        let store = try SQLiteItemStore(location: .file(path), schema: schema(post))
        #expect(try await store.page(post, ItemQuery()).items.count == 2)
    }

    @Test("a primary key change the items can follow rebuilds the table")
    func keyChangeApplied() async throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("app.sqlite")
        do {
            let store = try SQLiteItemStore(location: .file(path), schema: schema(post))
            try await store.put(post, [["id": "p1", "blogId": "b1"], ["id": "p2", "blogId": "b2"]])
        }
        var rekeyed = post
        rekeyed.primaryKey = PrimaryKey(partitionField: "blogId", sortKeyFields: ["id"])
        let store = try SQLiteItemStore(location: .file(path), schema: schema(rekeyed))
        #expect(try await store.get(rekeyed, ["blogId": "b2", "id": "p2"]) != nil)
    }
}
