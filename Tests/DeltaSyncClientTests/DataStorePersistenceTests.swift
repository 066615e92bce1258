import DeltaSyncClient
import Foundation
import GRDB
import Testing

@Suite("DataStore: the database file, reopening and schema changes")
struct DataStorePersistenceTests {
    let file = FileManager.default.temporaryDirectory
        .appendingPathComponent("deltasync-client-\(UUID().uuidString)").appendingPathComponent("store.sqlite")

    @Test("models and pending mutations survive closing and reopening the file")
    func reopen() async throws {
        do {
            let store = try DataStore(models: DeltaSyncModels.self, location: .file(file))
            try await store.save(Post(id: "p1", blogID: "b1", title: "Kept", tags: ["a"], publishedAt: "2026-11-22T10:00:00.000Z"))
            try await store.save(Blog(id: "b1", name: "Blog"))
        }
        let reopened = try DataStore(models: DeltaSyncModels.self, location: .file(file))
        let post = try #require(try await reopened.query(Post.self, byId: "p1"))
        #expect(post.title == "Kept" && post.tags == ["a"] && post.publishedAt == "2026-11-22T10:00:00.000Z")
        #expect(try await reopened.pendingMutations().map(\.modelName) == ["Post", "Blog"])
    }

    @Test("saves, sync pages and queries at once: every save is stored with one outbox entry, every query sees whole pages")
    func concurrentAccess() async throws {
        let store = try DataStore(models: DeltaSyncModels.self, location: .file(file))
        let pages = (0..<4).map { page in
            (0..<500).map { n -> Item in
                var item = Post(id: "synced-\(page)-\(n)", blogID: "b1", title: "Synced").item
                item["_version"] = 1
                item["_lastChangedAt"] = 1
                return item
            }
        }
        // More at once than the writer and the readers can take: some wait their turn.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for page in pages {
                group.addTask { _ = try await store.applyRemote("Post", records: page) }
            }
            for n in 0..<50 {
                group.addTask { try await store.save(Post(id: "local-\(n)", blogID: "b1", title: "Local")) }
            }
            for _ in 0..<20 {
                group.addTask {
                    let synced = try await store.query(Post.self, where: Post.keys.title == "Synced").count
                    #expect(synced % 500 == 0, "a query sees a sync page whole or not at all, not \(synced) posts")
                }
            }
            try await group.waitForAll()
        }
        #expect(try await store.query(Post.self).count == 2_050)
        let pending = try await store.pendingMutations()
        #expect(pending.count == 50)
        #expect(Set(pending.map(\.modelID)) == Set((0..<50).map { "local-\($0)" }))
    }

    @Test("the model change and its outbox entry commit together or not at all")
    func outboxInSameTransaction() async throws {
        let store = try DataStore(models: DeltaSyncModels.self, location: .file(file))
        try await store.save(Post(id: "p1", blogID: "b1", title: "One"))
        // Make the next outbox insert fail, from another connection to the same file.
        let other = try DatabaseQueue(path: file.path)
        try await other.write { db in
            for event in ["INSERT", "UPDATE", "DELETE"] {
                try db.execute(sql: "CREATE TRIGGER refuse_\(event) BEFORE \(event) ON deltasync_outbox BEGIN SELECT RAISE(ABORT, 'refused'); END")
            }
        }
        await #expect(throws: DataStoreError.self) { try await store.save(Post(id: "p2", blogID: "b1", title: "Two")) }
        await #expect(throws: DataStoreError.self) { try await store.delete(Post.self, withId: "p1") }
        #expect(try await store.query(Post.self).map(\.id) == ["p1"], "no model change without its outbox entry")
        #expect(try await store.pendingMutations().count == 1)
    }

    /// The example schema without `Post.authorIp`.
    enum ChangedModels: ModelRegistry {
        static let schemaVersion = DeltaSyncModels.schemaVersion + "-without-authorIp"
        static let schema: AmplifySchema = {
            var schema = DeltaSyncModels.schema
            let post = schema.models.firstIndex { $0.name == "Post" }!
            schema.models[post].fields.removeAll { $0.name == "authorIp" }
            return schema
        }()
        static let models = DeltaSyncModels.models
    }

    @Test("a schema change rebuilds local data and keeps the pending mutations that still fit")
    func schemaChange() async throws {
        #expect(ChangedModels.schema != DeltaSyncModels.schema)
        do {
            let store = try DataStore(models: DeltaSyncModels.self, location: .file(file))
            try await store.save(Blog(id: "b1", name: "Fits"))
            try await store.save(Post(id: "p1", blogID: "b1", title: "Uses authorIp", authorIp: "10.0.0.1"))
        }
        let reported = ErrorLog()
        var configuration = DataStoreConfiguration()
        configuration.errorHandler = reported.append
        let store = try DataStore(models: ChangedModels.self, location: .file(file), configuration: configuration)
        #expect(reported.errors == [.pendingMutationsDropped(model: "Post", count: 1, reason: "the schema no longer has field(s) authorIp")])
        #expect(try await store.pendingMutations().map(\.modelName) == ["Blog"])
        #expect(try await store.query(Blog.self).map(\.name) == ["Fits"], "a kept mutation's item stays visible")
        #expect(try await store.query(Post.self).isEmpty)

        // Opening again with the same schema changes nothing.
        let again = try DataStore(models: ChangedModels.self, location: .file(file), configuration: configuration)
        #expect(reported.errors.count == 1)
        #expect(try await again.pendingMutations().count == 1)
    }

    @Test("a file whose tables have an older layout is rebuilt like one of another schema, keeping pending mutations")
    func olderLayout() async throws {
        do {
            let store = try DataStore(models: DeltaSyncModels.self, location: .file(file))
            try await store.save(Blog(id: "b1", name: "Pending"))
            var synced = Post(id: "p1", blogID: "b1", title: "Synced").item
            synced["_version"] = 1
            synced["_lastChangedAt"] = 1
            _ = try await store.applyRemote("Post", records: [synced])
        }
        // As the first release left it: rows clustered by key, the schema's bare hash stored.
        let old = try DatabaseQueue(path: file.path)
        try await old.write { db in
            try db.execute(sql: """
                UPDATE deltasync_client_meta SET value = CASE WHEN instr(value, '-') > 0 THEN substr(value, 1, instr(value, '-') - 1) ELSE value END
                WHERE key = 'schemaVersion'
                """)
            try db.execute(sql: "DROP TABLE Post")
            try db.execute(sql: "CREATE TABLE Post (id TEXT NOT NULL, blogID TEXT, title TEXT, _version INTEGER NOT NULL DEFAULT 1, PRIMARY KEY (id)) WITHOUT ROWID")
        }
        try old.close()

        let store = try DataStore(models: DeltaSyncModels.self, location: .file(file))
        #expect(try await store.query(Post.self).isEmpty, "synced data is dropped; a full sync brings it back")
        #expect(try await store.query(Blog.self).map(\.name) == ["Pending"])
        #expect(try await store.pendingMutations().map(\.modelName) == ["Blog"])
        try await store.save(Post(id: "p2", blogID: "b1", title: "New"))
        let layout = try await DatabaseQueue(path: file.path).read { db in
            try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'Post'")
        }
        #expect(layout?.contains("WITHOUT ROWID") == false)
        #expect(try await store.query(Post.self).map(\.title) == ["New"])
    }
}

/// Errors the store reported, from any thread.
final class ErrorLog: @unchecked Sendable {
    private let lock = NSLock()
    private var reported: [DataStoreError] = []
    var errors: [DataStoreError] { lock.withLock { reported } }
    func append(_ error: DataStoreError) { lock.withLock { reported.append(error) } }
}
