import DeltaSyncClient
import Foundation
import Testing

@Suite("Client sync against a real server: outbox, base and delta sync, selective sync")
struct SyncTests {
    @Test("changes saved offline on one device reach another through the server")
    func offlineChangesReachAnotherDevice() async throws {
        try await SyncServer.run { server in
            let phone = try server.device()
            try await phone.save(Blog(id: "b1", name: "Travel"))
            try await phone.save(Post(id: "p1", blogID: "b1", title: "Lisbon", rating: 4, tags: ["city"]))
            try await phone.save(Post(id: "p2", blogID: "b1", title: "Porto"))
            try await phone.delete(Post.self, withId: "p2")

            try await phone.start()
            #expect(try await phone.pendingMutations().isEmpty, "the outbox was sent")
            let synced = try #require(try await phone.query(Post.self, byId: "p1"))
            #expect(synced.createdAt != nil, "the server's version replaced the local one")

            let laptop = try server.device()
            let events = try await laptop.start()
            #expect(events.first { $0.modelName == "Post" } == ModelSyncedEvent(modelName: "Post", isFullSync: true, added: 1, updated: 0, deleted: 0))
            let post = try #require(try await laptop.query(Post.self, byId: "p1"))
            #expect(post.title == "Lisbon" && post.rating == 4 && post.tags == ["city"])
            #expect(try await laptop.query(Post.self, byId: "p2") == nil)
            #expect(try await laptop.query(Blog.self).map(\.name) == ["Travel"])
        }
    }

    @Test("a second start within the sync interval runs a delta sync with only what changed")
    func deltaSync() async throws {
        try await SyncServer.run { server in
            let writer = try server.device()
            for n in 1...3 { try await writer.save(Post(id: "p\(n)", blogID: "b1", title: "Post \(n)")) }
            try await writer.start()

            let reader = try server.device()
            #expect(try await reader.start().first { $0.modelName == "Post" }?.isFullSync == true)

            var edited = try #require(try await writer.query(Post.self, byId: "p2"))
            edited.title = "Edited"
            try await writer.save(edited)
            try await writer.delete(Post.self, withId: "p3")
            try await writer.start()

            let delta = try #require(try await reader.start().first { $0.modelName == "Post" })
            #expect(delta == ModelSyncedEvent(modelName: "Post", isFullSync: false, added: 0, updated: 1, deleted: 1))
            #expect(try await reader.query(Post.self, sort: [.ascending(Post.keys.id)]).map(\.title) == ["Post 1", "Edited"])
        }
    }

    @Test("a sync expression keeps only matching items on the device")
    func selectiveSync() async throws {
        try await SyncServer.run { server in
            let writer = try server.device()
            for n in 1...4 { try await writer.save(Post(id: "p\(n)", blogID: n % 2 == 0 ? "even" : "odd", title: "Post \(n)")) }
            try await writer.start()

            let reader = try server.device { $0.syncExpressions = [SyncExpression(Post.self) { Post.keys.blogID == "even" }] }
            try await reader.start()
            #expect(try await reader.query(Post.self, sort: [.ascending(Post.keys.id)]).map(\.id) == ["p2", "p4"])
        }
    }

    @Test("syncMaxRecords stops a sync early, reports it, and leaves the model unsynced")
    func maxRecords() async throws {
        try await SyncServer.run { server in
            let writer = try server.device()
            for n in 1...5 { try await writer.save(Post(id: "p\(n)", blogID: "b1", title: "Post \(n)")) }
            try await writer.start()

            let errors = ErrorLog()
            let reader = try server.device({ $0.syncPageSize = 2; $0.syncMaxRecords = 3 }, errors: errors)
            try await reader.start()
            #expect(try await reader.query(Post.self).count == 3)
            #expect(errors.errors == [.syncMaxRecordsReached(model: "Post", limit: 3)])
            #expect(try await reader.syncMetadata(for: "Post") == nil, "not marked synced: the next sync is full again")
        }
    }

    @Test("a failed condition on the server drops the mutation and reports it")
    func conditionFailsOnServer() async throws {
        try await SyncServer.run { server in
            let one = try server.device()
            try await one.save(Post(id: "p1", blogID: "b1", title: "Shared", rating: 1))
            try await one.start()

            let errors = ErrorLog()
            let two = try server.device(errors: errors)
            try await two.start()
            var local = try #require(try await two.query(Post.self, byId: "p1"))
            // The other device raises the rating first.
            var remote = try #require(try await one.query(Post.self, byId: "p1"))
            remote.rating = 5
            try await one.save(remote)
            try await one.start()

            local.title = "Only if still rated 1"
            try await two.save(local, where: Post.keys.rating == 1)  // true locally, false on the server
            try await two.start()
            #expect(try await two.pendingMutations().isEmpty)
            #expect(errors.errors.map { if case .rejected(_, let type, _) = $0 { type } else { "\($0)" } } == ["ConditionalCheckFailedException"])
        }
    }

    @Test("an unreachable backend keeps the outbox for the next start")
    func offline() async throws {
        let store = try DataStore(
            models: DeltaSyncModels.self,
            configuration: DataStoreConfiguration(endpoint: SyncEndpoint(url: URL(string: "http://127.0.0.1:1/graphql")!, apiKey: "da2-x")))
        try await store.save(Post(id: "p1", blogID: "b1", title: "Offline"))
        await #expect(throws: DataStoreError.self) { try await store.start() }
        #expect(try await store.pendingMutations().count == 1)
    }
}
