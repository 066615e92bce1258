import DeltaSyncClient
import DeltaSyncCore
import DeltaSyncPostgres
import DeltaSyncPostgresTestSupport
import DeltaSyncSchema
import DeltaSyncServer
import DeltaSyncStorage
import DeltaSyncTesting
import Foundation
import Testing

/// One store served versioned, then without conflict detection, then versioned again, as a team
/// moving off DataStore does it: nothing is lost, tombstones never come back as items, and a
/// device that synced before the switch converges on what was written while it was off.
@Suite("Switching conflict detection on a store")
struct ConflictDetectionSwitchTests {
    enum Store: String, CaseIterable, CustomTestStringConvertible {
        case sqliteFile, postgres
        var testDescription: String { rawValue }
    }

    /// Opens the same store again for each server: the same SQLite file or PostgreSQL schema.
    struct StoreOpener {
        let store: Store
        let file: String
        let postgres: PostgresStoreSettings?

        init(_ store: Store, folder: URL) async throws {
            self.store = store
            file = folder.appendingPathComponent("server.sqlite").path
            postgres = store == .postgres ? try await PostgresCluster.settings(pool: 2) : nil
        }

        /// Serves the schema with `mode` on the store until `body` returns.
        func serve<T: Sendable>(
            _ mode: ConflictDetection, _ body: (DeltaSyncTestServer, ServedShapeChange?) async throws -> T
        ) async throws -> T {
            let project = try AmplifyProject.load(schemaFile: SyncServer.schemaFile).servingConflictDetection(mode, because: "the test")
            let storage: ServerConfiguration.Storage
            var opened: PostgresItemStore?
            if let postgres {
                opened = try await PostgresItemStore.connect(settings: postgres, schema: project.schema)
                storage = .store(opened!)
            } else {
                storage = .file(file)
            }
            do {
                let result = try await DeltaSyncTestServer.withServer(project: project, configure: { configuration in
                    configuration.apiKey = SyncServer.apiKey
                    configuration.storage = storage
                }) { server in
                    try await body(server, server.running.servedShapeChange)
                }
                await opened?.shutdown()
                return result
            } catch {
                await opened?.shutdown()
                throw error
            }
        }
    }

    static func device(_ server: DeltaSyncTestServer, file: URL) throws -> DataStore {
        var configuration = DataStoreConfiguration(endpoint: SyncEndpoint(url: URL(string: server.graphQLURL)!, apiKey: SyncServer.apiKey))
        configuration.retryBackoff = RetryBackoff(base: .milliseconds(20), maximum: .milliseconds(500))
        return try DataStore(models: DeltaSyncModels.self, location: .file(file), configuration: configuration)
    }

    static func graphQL(_ server: DeltaSyncTestServer, _ query: String) async throws -> JSONValue {
        let answer = try await server.graphQL(query)
        #expect(answer["errors"].isNull, "\(query): \(answer.jsonText)")
        return answer["data"]
    }

    @Test("versioned, plain, versioned again: nothing lost, and the device converges", arguments: Store.allCases)
    func switchingBackAndForth(store: Store) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("deltasync-switch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let deviceFile = folder.appendingPathComponent("device.sqlite")
        let opener = try await StoreOpener(store, folder: folder)

        // 1. Versioned: a device writes three posts and deletes one.
        try await opener.serve(.version) { server, change in
            #expect(change == nil, "a new store has no earlier mode")
            let device = try Self.device(server, file: deviceFile)
            let log = EventLog(device)
            try await device.start()
            for n in 1...3 { try await device.save(Post(id: "p\(n)", blogID: "b1", title: "Post \(n)")) }
            try await log.waitForEmptyOutbox(of: device)
            // Deleted once on the server (an outbox merges a create and a delete not yet sent).
            try await device.delete(Post.self, withId: "p3")
            try await log.waitForEmptyOutbox(of: device)
            await device.stop()
        }

        // 2. Without conflict detection: the tombstone is no item; plain writes change, delete, create.
        try await opener.serve(.none) { server, change in
            #expect(change?.previous.conflictDetection == "VERSION")
            #expect(change?.message(deltaTTL: .seconds(1800)).contains("Nothing was converted") == true)
            let listed = try await Self.graphQL(server, "{ listPosts { items { id title } } }")["listPosts"]["items"]
            #expect(Set((listed.arrayValue ?? []).compactMap { $0["id"].stringValue }) == ["p1", "p2"], "the deleted p3 is not an item")
            _ = try await Self.graphQL(server, #"mutation { updatePost(input: {id: "p1", title: "Edited while plain"}) { id } }"#)
            _ = try await Self.graphQL(server, #"mutation { deletePost(input: {id: "p2"}) { id } }"#)
            _ = try await Self.graphQL(server, #"mutation { createPost(input: {id: "p4", blogID: "b1", title: "Made while plain"}) { id } }"#)
            _ = try await Self.graphQL(server, #"mutation { createPost(input: {id: "p3", blogID: "b1", title: "p3 again"}) { id } }"#)
        }

        // 3. Versioned again: every item has its metadata, and the device catches up.
        try await opener.serve(.version) { server, change in
            #expect(change?.previous.conflictDetection == "NONE")
            #expect(change?.message(deltaTTL: .seconds(1800)).contains("Nothing needed converting") == true)
            let items = try await Self.graphQL(server, "{ syncPosts { items { id title _version _deleted _lastChangedAt } } }")["syncPosts"]["items"]
            let byID = Dictionary(uniqueKeysWithValues: (items.arrayValue ?? []).map { ($0["id"].stringValue ?? "", $0) })
            #expect(Set(byID.keys) == ["p1", "p2", "p3", "p4"])
            for (id, item) in byID {
                #expect(item["_version"].intValue != nil && item["_lastChangedAt"].intValue != nil, "\(id) has its metadata")
            }
            #expect(byID["p1"]?["_version"] == 2 && byID["p1"]?["title"] == "Edited while plain")
            #expect(byID["p2"]?["_deleted"] == true, "the plain delete is a tombstone to DataStore")
            #expect(byID["p3"]?["_version"] == 3 && byID["p3"]?["_deleted"] != true, "re-created over its tombstone")
            #expect(byID["p4"]?["_version"] == 1)

            let device = try Self.device(server, file: deviceFile)
            let synced = try await device.start()
            #expect(!synced.isEmpty)
            let posts = try await device.query(Post.self).sorted { $0.id < $1.id }
            #expect(posts.map(\.id) == ["p1", "p3", "p4"])
            #expect(posts.map(\.title) == ["Edited while plain", "p3 again", "Made while plain"])
            await device.stop()
        }
    }

    /// Two servers on one PostgreSQL schema, one per shape, as a team runs old DataStore builds
    /// beside new API-category builds: the plain server's writes reach a DataStore device on the
    /// versioned server live, with their versions, and its deletes as deletions.
    @Test("side by side on one PostgreSQL schema: plain writes reach DataStore devices live")
    func sideBySide() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("deltasync-side-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let opener = try await StoreOpener(.postgres, folder: folder)
        try await opener.serve(.version) { versioned, _ in
            try await opener.serve(.none) { plain, _ in
                let device = try Self.device(versioned, file: folder.appendingPathComponent("device.sqlite"))
                let log = EventLog(device)
                try await device.start()
                // What the new app selects: the model's scalars, as Amplify's statements do.
                let fields = "id blogID title body status rating views featured tags metadata publishedAt createdAt updatedAt"
                _ = try await Self.graphQL(plain, "mutation { createPost(input: {id: \"s1\", blogID: \"b1\", title: \"From the new app\"}) { \(fields) } }")
                try await log.wait(for: "the plain create", EventLog.received("s1", .create, version: 1))
                _ = try await Self.graphQL(plain, "mutation { updatePost(input: {id: \"s1\", title: \"Edited by the new app\"}) { \(fields) } }")
                try await log.wait(for: "the plain update", EventLog.received("s1", .update, version: 2))
                #expect(try await device.query(Post.self, byId: "s1")?.title == "Edited by the new app")
                _ = try await Self.graphQL(plain, "mutation { deletePost(input: {id: \"s1\"}) { \(fields) } }")
                try await log.wait(for: "the plain delete", EventLog.received("s1", .delete, version: 3))
                #expect(try await device.query(Post.self, byId: "s1") == nil)

                // The device's own write and delete reach the plain API as an item and then none.
                try await device.save(Post(id: "s2", blogID: "b1", title: "From the old app"))
                try await log.waitForEmptyOutbox(of: device)
                #expect(try await Self.graphQL(plain, #"{ getPost(id: "s2") { title } }"#)["getPost"]["title"] == "From the old app")
                try await device.delete(Post.self, withId: "s2")
                try await log.waitForEmptyOutbox(of: device)
                #expect(try await Self.graphQL(plain, #"{ getPost(id: "s2") { title } }"#)["getPost"] == .null)
                await device.stop()
            }
        }
    }
}
