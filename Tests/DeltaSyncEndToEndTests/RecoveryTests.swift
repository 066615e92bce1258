import DeltaSyncClient
import DeltaSyncCore
import DeltaSyncTesting
import Foundation
import Testing

@Suite("Recovering from a killed app, lost answers and a dropped connection", .tags(.timing))
struct RecoveryTests {
    @Test("an app killed with a pending outbox sends it after restart and loses nothing")
    func killedWithPendingOutbox() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("deltasync-recovery-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("device.sqlite")
        try await SyncServer.run { server in
            let link = try await NetworkLink(to: server.port)
            link.goOffline()
            do {
                let store = try server.device(through: link, location: .file(file))
                for n in 1...3 { try await store.save(Post(id: "p\(n)", blogID: "b1", title: "Written offline \(n)")) }
                var second = try #require(try await store.query(Post.self, byId: "p2"))
                second.rating = 5
                try await store.save(second)
                try await store.delete(Post.self, withId: "p3")
                // The app is killed here: the store is gone without stop().
            }
            link.goOnline()
            let restarted = try server.device(through: link, location: .file(file))
            #expect(try await restarted.pendingMutations().map(\.modelID) == ["p1", "p2"], "the outbox survived, merged")
            let log = EventLog(restarted)
            try await restarted.start()
            try await log.waitForEmptyOutbox(of: restarted)
            let onServer = try await server.items("listPosts", selection: "id title rating _version")
            #expect(onServer.sorted { $0["id"]?.stringValue ?? "" < $1["id"]?.stringValue ?? "" } == [
                ["id": "p1", "title": "Written offline 1", "rating": nil, "_version": 1],
                ["id": "p2", "title": "Written offline 2", "rating": 5, "_version": 1],
            ])
            await link.close()
        }
    }

    @Test("a create whose answer was lost is sent again, and the device converges on one item")
    func lostAnswer() async throws {
        try await SyncServer.run { server in
            let link = try await NetworkLink(to: server.port)
            let errors = ErrorLog()
            let store = try server.device(through: link, errors: errors)
            let log = EventLog(store)
            try await store.start()

            link.loseAnswer(toRequestContaining: "createPost")
            try await store.save(Post(id: "p1", blogID: "b1", title: "Sent once"))
            try await log.wait(for: "the answer lost", EventLog.offline)
            try await log.waitForEmptyOutbox(of: store)

            let onServer = try await server.items("listPosts", selection: "id title _version")
            #expect(onServer == [["id": "p1", "title": "Sent once", "_version": 1]], "the server holds the item once")
            let local = try #require(try await store.query(Post.self, byId: "p1"))
            #expect(local.createdAt != nil, "the device took the server's copy")
            await link.close()
        }
    }

    @Test("dropping the connections in the middle of a sync recovers without losing or duplicating anything")
    func droppedMidSync() async throws {
        try await SyncServer.run { server in
            let writer = try server.device()
            let writerLog = EventLog(writer)
            for n in 0..<300 { try await writer.save(Post(id: String(format: "p%03d", n), blogID: "b1", title: "Post \(n)")) }
            try await writerLog.waitForEmptyOutbox(of: writer)

            let link = try await NetworkLink(to: server.port)
            let reader = try server.device(through: link) { $0.syncPageSize = 10 }
            let log = EventLog(reader)
            try await reader.save(Post(id: "local", blogID: "b1", title: "Made during the sync"))
            // Wait until part of the sync is on the device, then cut every connection.
            try await log.wait(for: "the first synced page") { event in
                if case .syncReceived(let change) = event { change.modelName == "Post" && change.modelID != "local" } else { false }
            }
            link.dropConnections()
            try await log.wait(for: "offline", EventLog.offline)
            // Another device writes while this one is reconnecting.
            try await writer.save(Post(id: "p999", blogID: "b1", title: "Written meanwhile"))
            try await writerLog.waitForEmptyOutbox(of: writer)

            try await log.wait(for: "ready after reconnecting", EventLog.offline, EventLog.ready)
            try await log.waitForEmptyOutbox(of: reader)
            try await log.wait(for: "p999", EventLog.received("p999"))
            let onServer = try await server.items("listPosts", selection: "id")
            let local = try await reader.query(Post.self)
            #expect(onServer.count == 302)
            #expect(Set(local.map(\.id)) == Set(onServer.compactMap { $0["id"]?.stringValue }), "nothing lost")
            #expect(local.count == 302, "nothing twice")
            await link.close()
        }
    }

    @Test("after losing its connection a device resubscribes, then a delta sync brings what changed meanwhile")
    func reconnectDeltaSyncs() async throws {
        try await SyncServer.run { server in
            let writer = try server.device()
            let writerLog = EventLog(writer)
            let link = try await NetworkLink(to: server.port)
            let reader = try server.device(through: link)
            let log = EventLog(reader)
            try await reader.start()

            link.goOffline()
            try await log.wait(for: "offline", EventLog.offline)
            try await writer.save(Post(id: "p1", blogID: "b1", title: "Written while the reader was away"))
            try await writerLog.waitForEmptyOutbox(of: writer)
            link.goOnline()

            let isPostDelta: EventLog.Match = { event in
                if case .modelSynced(let synced) = event { synced.modelName == "Post" && synced.isDeltaSync && synced.added == 1 } else { false }
            }
            let online: EventLog.Match = { if case .networkStatus(active: true) = $0 { true } else { false } }
            let subscribed: EventLog.Match = { if case .subscriptionsEstablished = $0 { true } else { false } }
            try await log.wait(for: "resubscribed, then a delta sync", EventLog.offline, online, subscribed, isPostDelta, EventLog.ready)
            #expect(try await reader.query(Post.self, byId: "p1")?.title == "Written while the reader was away")
            await link.close()
        }
    }
}
