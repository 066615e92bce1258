import DeltaSyncClient
import DeltaSyncTesting
import Foundation
import Testing

@Suite("Client sync against a real server: outbox, base and delta sync, selective sync, realtime")
struct SyncTests {
    @Test("changes saved offline on one device reach another through the server")
    func offlineChangesReachAnotherDevice() async throws {
        try await SyncServer.run { server in
            let link = try await NetworkLink(to: server.port)
            link.goOffline()
            let phone = try server.device(through: link)
            let phoneLog = EventLog(phone)
            try await phone.save(Blog(id: "b1", name: "Travel"))
            try await phone.save(Post(id: "p1", blogID: "b1", title: "Lisbon", rating: 4, tags: ["city"]))
            try await phone.save(Post(id: "p2", blogID: "b1", title: "Porto"))
            try await phone.delete(Post.self, withId: "p2")
            #expect(try await phone.pendingMutations().count == 2, "create+delete of p2 cancelled out")

            link.goOnline()
            try await phoneLog.waitForEmptyOutbox(of: phone)
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
            await link.close()
        }
    }

    @Test("a change on one device reaches a running device live, through its subscriptions")
    func realtime() async throws {
        try await SyncServer.run { server in
            let writer = try server.device()
            let reader = try server.device()
            let readerLog = EventLog(reader)
            try await writer.start()
            try await reader.start()

            try await writer.save(Post(id: "p1", blogID: "b1", title: "Live"))
            try await readerLog.wait(for: "p1 received", EventLog.received("p1", .create))
            #expect(try await reader.query(Post.self, byId: "p1")?.title == "Live")

            var post = try #require(try await writer.query(Post.self, byId: "p1"))
            post.title = "Edited"
            try await writer.save(post)
            try await readerLog.wait(for: "the edit received", EventLog.received("p1", .update))
            #expect(try await reader.query(Post.self, byId: "p1")?.title == "Edited")

            try await writer.delete(post)
            try await readerLog.wait(for: "the delete received", EventLog.received("p1", .delete))
            #expect(try await reader.query(Post.self, byId: "p1") == nil)
        }
    }

    @Test("start announces each stage in order, and observeQuery reports when the model is synced")
    func stagesAndSyncedSnapshots() async throws {
        try await SyncServer.run { server in
            let writer = try server.device()
            try await writer.save(Post(id: "p1", blogID: "b1", title: "One"))
            let writerLog = EventLog(writer)
            try await writer.start()
            try await writerLog.waitForEmptyOutbox(of: writer)

            let reader = try server.device()
            let log = EventLog(reader)
            var snapshots = reader.observeQuery(for: Post.self).makeAsyncIterator()
            let first = try #require(try await snapshots.next())
            #expect(!first.isSynced)
            try await log.waitUntilReady()
            var synced = try #require(try await snapshots.next())
            while !synced.isSynced { synced = try #require(try await snapshots.next()) }
            #expect(synced.items.map(\.id) == ["p1"], "the synced snapshot holds what the sync brought")

            let stages = log.events.compactMap { event -> String? in
                switch event {
                case .networkStatus(let active): "network \(active)"
                case .subscriptionsEstablished: "subscriptions"
                case .syncQueriesStarted: "sync started"
                case .modelSynced(let model) where model.modelName == "Post": "Post synced"
                case .syncQueriesReady: "sync ready"
                case .ready: "ready"
                default: nil
                }
            }
            #expect(stages == ["network true", "subscriptions", "sync started", "Post synced", "sync ready", "ready"])
        }
    }

    @Test("stop and start within the sync interval runs a delta sync with only what changed")
    func deltaSync() async throws {
        try await SyncServer.run { server in
            let writer = try server.device()
            let writerLog = EventLog(writer)
            for n in 1...3 { try await writer.save(Post(id: "p\(n)", blogID: "b1", title: "Post \(n)")) }
            try await writer.start()
            try await writerLog.waitForEmptyOutbox(of: writer)

            let reader = try server.device()
            #expect(try await reader.start().first { $0.modelName == "Post" }?.isFullSync == true)
            await reader.stop()

            var edited = try #require(try await writer.query(Post.self, byId: "p2"))
            edited.title = "Edited"
            try await writer.save(edited)
            try await writer.delete(Post.self, withId: "p3")
            try await writerLog.waitForEmptyOutbox(of: writer)

            let delta = try #require(try await reader.start().first { $0.modelName == "Post" })
            #expect(delta == ModelSyncedEvent(modelName: "Post", isFullSync: false, added: 0, updated: 1, deleted: 1))
            #expect(try await reader.query(Post.self, sort: [.ascending(Post.keys.id)]).map(\.title) == ["Post 1", "Edited"])
        }
    }

    @Test("a sync expression keeps only matching items on the device, from sync and from subscriptions")
    func selectiveSync() async throws {
        try await SyncServer.run { server in
            let writer = try server.device()
            let writerLog = EventLog(writer)
            for n in 1...4 { try await writer.save(Post(id: "p\(n)", blogID: n % 2 == 0 ? "even" : "odd", title: "Post \(n)")) }
            try await writerLog.waitForEmptyOutbox(of: writer)

            let reader = try server.device { $0.syncExpressions = [SyncExpression(Post.self) { Post.keys.blogID == "even" }] }
            let readerLog = EventLog(reader)
            try await reader.start()
            #expect(try await reader.query(Post.self, sort: [.ascending(Post.keys.id)]).map(\.id) == ["p2", "p4"])

            try await writer.save(Post(id: "p5", blogID: "odd", title: "Post 5"))
            try await writer.save(Post(id: "p6", blogID: "even", title: "Post 6"))
            try await readerLog.wait(for: "p6 received", EventLog.received("p6"))
            #expect(try await reader.query(Post.self, sort: [.ascending(Post.keys.id)]).map(\.id) == ["p2", "p4", "p6"])
        }
    }

    @Test("a sync expression subscriptions cannot express (`not`) subscribes unfiltered and filters on the device")
    func selectiveSyncBeyondSubscriptionFilters() async throws {
        try await SyncServer.run { server in
            let writer = try server.device()
            let errors = ErrorLog()
            let reader = try server.device(errors: errors) { $0.syncExpressions = [SyncExpression(Post.self) { !(Post.keys.blogID == "odd") }] }
            let readerLog = EventLog(reader)
            try await reader.start()
            try await writer.save(Post(id: "p1", blogID: "odd", title: "Not for the reader"))
            try await writer.save(Post(id: "p2", blogID: "even", title: "For the reader"))
            try await readerLog.wait(for: "p2 received", EventLog.received("p2"))
            #expect(try await reader.query(Post.self).map(\.id) == ["p2"])
            #expect(errors.errors.isEmpty, "falling back to an unfiltered subscription is not an error")
        }
    }

    @Test("syncMaxRecords stops a sync early, reports it, and records it: the next launch runs a delta sync, as Amplify's does")
    func maxRecords() async throws {
        try await SyncServer.run { server in
            let writer = try server.device()
            let writerLog = EventLog(writer)
            for n in 1...5 { try await writer.save(Post(id: "p\(n)", blogID: "b1", title: "Post \(n)")) }
            try await writerLog.waitForEmptyOutbox(of: writer)

            let errors = ErrorLog()
            let reader = try server.device(errors: errors) {
                $0.syncPageSize = 2
                $0.syncMaxRecords = 3
            }
            try await reader.start()
            #expect(try await reader.query(Post.self).count == 3)
            #expect(errors.errors == [.syncMaxRecordsReached(model: "Post", limit: 3)])
            #expect(try await reader.syncMetadata(for: Post.self)?.lastSync != nil, "recorded: the next sync is a delta sync")
            await reader.stop()
            try await writer.save(Post(id: "p6", blogID: "b1", title: "Post 6"))
            try await writerLog.waitForEmptyOutbox(of: writer)
            let again = try #require(try await reader.start().first { $0.modelName == "Post" })
            #expect(again.isDeltaSync && again.added == 1, "only what changed since")
            #expect(try await reader.query(Post.self).count == 4)
        }
    }

    @Test("a failed condition on the server drops the mutation, announces it and keeps the server's version")
    func conditionFailsOnServer() async throws {
        try await SyncServer.run { server in
            let one = try server.device()
            let oneLog = EventLog(one)
            try await one.save(Post(id: "p1", blogID: "b1", title: "Shared", rating: 1))
            try await oneLog.waitForEmptyOutbox(of: one)

            let errors = ErrorLog()
            let two = try server.device(errors: errors)
            let twoLog = EventLog(two)
            try await two.start()
            var local = try #require(try await two.query(Post.self, byId: "p1"))
            await two.stop()
            // The other device raises the rating while this one is not listening.
            var remote = try #require(try await one.query(Post.self, byId: "p1"))
            remote.rating = 5
            try await one.save(remote)
            try await oneLog.waitForEmptyOutbox(of: one)

            local.title = "Only if still rated 1"
            try await two.save(local, where: Post.keys.rating == 1)  // true locally, false on the server
            try await twoLog.wait(for: "conditionalSaveFailed") { event in
                if case .conditionalSaveFailed(let change) = event { change.modelID == "p1" } else { false }
            }
            try await twoLog.waitForEmptyOutbox(of: two)
            #expect(errors.errors.map { if case .rejected(_, let type, _) = $0 { type } else { "\($0)" } } == ["ConditionalCheckFailedException"])
            let converged = try #require(try await two.query(Post.self, byId: "p1"))
            #expect(converged.title == "Shared" && converged.rating == 5, "the device took the server's version")
        }
    }

    @Test("an unreachable backend fails start, keeps the outbox, and syncs once it is reachable")
    func offline() async throws {
        try await SyncServer.run { server in
            let link = try await NetworkLink(to: server.port)
            link.goOffline()
            let store = try server.device(through: link)
            let log = EventLog(store)
            try await store.save(Post(id: "p1", blogID: "b1", title: "Offline"))
            await #expect(throws: DataStoreError.self) { try await store.start() }
            #expect(try await store.pendingMutations().count == 1)
            try await log.wait(for: "offline", EventLog.offline)

            link.goOnline()
            try await log.waitForEmptyOutbox(of: store)
            #expect(try await server.items("listPosts", selection: "id title").map { $0["title"] } == ["Offline"])
            await link.close()
        }
    }
}
