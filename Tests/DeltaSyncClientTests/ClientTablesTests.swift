import DeltaSyncClient
import Foundation
import GRDB
import Synchronization
import Testing

@Suite("The DataStore's own tables: migrations and files written before them")
struct ClientTablesTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("deltasync-tables-\(UUID().uuidString)")

    /// A copy of a file written by the DataStore before it used migrations (`Fixtures/`): a
    /// synced post, a pending blog and post, and the posts' sync state. It was written with
    /// this target's `schema.graphql`; a change to that schema makes the store rebuild the
    /// models' tables, and this test must then be given a new fixture.
    func fixtureCopy() throws -> URL {
        let fixture = try #require(Bundle.module.url(forResource: "Fixtures/datastore-before-migrations", withExtension: "sqlite"))
        let file = folder.appendingPathComponent("store.sqlite")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: fixture, to: file)
        return file
    }

    @Test("a file written before migrations opens with its items, outbox and sync state, and is upgraded once")
    func upgradesAnOldFile() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try fixtureCopy()
        do {
            let store = try DataStore(models: DeltaSyncModels.self, location: .file(file))
            let synced = try #require(try await store.query(Post.self, byId: "synced"))
            #expect(synced.title == "From the server")
            #expect(try await store.query(Post.self, byId: "p1")?.tags == ["x"])
            let pending = try await store.pendingMutations()
            #expect(pending.map { "\($0.modelName) \($0.modelID) \($0.mutationType.rawValue)" } == ["Blog b1 create", "Post p1 create"])
            #expect(pending.last?.item["title"] == "Pending post")
            #expect(try await store.syncMetadata(for: Post.self)?.lastSync == 1_763_900_000_000)
        }
        let applied = try await DatabaseQueue(path: file.path).read { db in
            try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations")
        }
        #expect(applied == ["v1: meta, outbox, model sync"])
        // Opening again runs nothing and keeps everything.
        let reopened = try DataStore(models: DeltaSyncModels.self, location: .file(file))
        #expect(try await reopened.pendingMutations().count == 2)
    }

    @Test("an unreadable outbox row is left out of pendingMutations and reported")
    func unreadableRowIsReported() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try fixtureCopy()
        try await DatabaseQueue(path: file.path).write { db in
            try db.execute(sql: "UPDATE deltasync_outbox SET condition = '{' WHERE modelID = 'b1'")
        }
        let reported = Reported()
        var configuration = DataStoreConfiguration()
        configuration.errorHandler = { reported.append($0) }
        let store = try DataStore(models: DeltaSyncModels.self, location: .file(file), configuration: configuration)
        #expect(try await store.pendingMutations().map(\.modelID) == ["p1"])
        #expect(reported.errors == [.unreadableOutboxMutation(sequence: 1, model: "Blog", reason: "its condition is not JSON")])
    }
}

/// Errors the store reported, from any thread.
final class Reported: Sendable {
    private let box = Mutex<[DataStoreError]>([])
    var errors: [DataStoreError] { box.withLock { $0 } }
    func append(_ error: DataStoreError) { box.withLock { $0.append(error) } }
}
