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
        static let schemaText = DeltaSyncModels.schemaText.replacingOccurrences(of: "  authorIp: AWSIPAddress\n", with: "")
        static let schema = AmplifySchema.generated(schemaText)
        static let models = DeltaSyncModels.models
    }

    @Test("a schema change rebuilds local data and keeps the pending mutations that still fit")
    func schemaChange() async throws {
        #expect(ChangedModels.schemaText != DeltaSyncModels.schemaText)
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
}

/// Errors the store reported, from any thread.
final class ErrorLog: @unchecked Sendable {
    private let lock = NSLock()
    private var reported: [DataStoreError] = []
    var errors: [DataStoreError] { lock.withLock { reported } }
    func append(_ error: DataStoreError) { lock.withLock { reported.append(error) } }
}
