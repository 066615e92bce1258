import DeltaSyncClient
import DeltaSyncCore
import DeltaSyncServer
import DeltaSyncTesting
import Foundation
import Testing

/// Two devices edit the same post while offline, then come back one after the other. Whatever
/// the server's conflict handler and the second device's, both devices end up with what the
/// server holds.
@Suite("Concurrent offline edits converge under each conflict handler")
struct OfflineConflictTests {
    /// What both devices and the server hold at the end.
    struct Outcome {
        let title: String
        let rating: Int?
        /// What device two was told beyond going offline and back.
        let refusals: [DataStoreError]
    }

    /// Device one renames the post, device two re-rates it, both offline; one reconnects and
    /// sends first, then two. Returns the converged post, after checking that both devices and
    /// the server agree.
    func editConcurrently(
        server serverConfiguration: @escaping (inout ServerConfiguration) -> Void,
        deviceTwo configureTwo: @escaping (inout DataStoreConfiguration) -> Void = { _ in }
    ) async throws -> Outcome {
        var outcome: Outcome?
        try await SyncServer.run(serverConfiguration) { server in
            let linkOne = try await NetworkLink(to: server.port)
            let linkTwo = try await NetworkLink(to: server.port)
            let one = try server.device(through: linkOne)
            let errors = ErrorLog()
            let two = try server.device(through: linkTwo, errors: errors, configureTwo)
            let logOne = EventLog(one)
            let logTwo = EventLog(two)
            try await one.save(Post(id: "p1", blogID: "b1", title: "Draft", rating: 1))
            try await logOne.waitForEmptyOutbox(of: one)
            try await two.start()
            #expect(try await two.query(Post.self, byId: "p1")?.title == "Draft")

            linkOne.goOffline()
            linkTwo.goOffline()
            var postOne = try #require(try await one.query(Post.self, byId: "p1"))
            postOne.title = "Renamed on one"
            try await one.save(postOne)
            var postTwo = try #require(try await two.query(Post.self, byId: "p1"))
            postTwo.rating = 5
            try await two.save(postTwo)

            linkOne.goOnline()
            try await logOne.waitForEmptyOutbox(of: one)
            linkTwo.goOnline()
            try await logTwo.waitForEmptyOutbox(of: two)
            let onServer = try #require(try await server.items("listPosts", selection: "id title rating _version").first)
            // Device one hears the outcome over its subscription, unless two's change was dropped.
            if onServer["_version"] != 2 {
                try await logOne.wait(for: "device two's outcome", EventLog.received("p1", version: onServer["_version"]?.intValue))
            }
            let finalOne = try #require(try await one.query(Post.self, byId: "p1"))
            let finalTwo = try #require(try await two.query(Post.self, byId: "p1"))
            #expect(finalOne == finalTwo, "both devices hold the same post")
            #expect(finalOne.title == onServer["title"]?.stringValue && finalOne.rating == onServer["rating"]?.intValue, "as the server does")
            outcome = Outcome(
                title: finalOne.title, rating: finalOne.rating,
                refusals: errors.errors.filter { if case .network = $0 { false } else { true } })
            await linkOne.close()
            await linkTwo.close()
        }
        return try #require(outcome)
    }

    @Test("Automerge (the server's default): the stale update is merged, the server's fields win")
    func automerge() async throws {
        let outcome = try await editConcurrently(server: { _ in })
        #expect(outcome.title == "Renamed on one", "the server's scalar wins over the stale copy")
        #expect(outcome.rating == 1)
        #expect(outcome.refusals.isEmpty, "a merge is not a refusal")
    }

    @Test("optimistic concurrency with the default handler: the device takes the server's version")
    func optimisticApplyRemote() async throws {
        let outcome = try await editConcurrently(server: { $0.conflictHandler = .optimisticConcurrency })
        #expect(outcome.title == "Renamed on one" && outcome.rating == 1)
        #expect(outcome.refusals.isEmpty, "applying the remote version is the handler's decision, not an error")
    }

    @Test("optimistic concurrency, handler answers retryLocal: the device's copy is sent again and wins")
    func optimisticRetryLocal() async throws {
        let outcome = try await editConcurrently(server: { $0.conflictHandler = .optimisticConcurrency }) {
            $0.conflictHandler = { _ in .retryLocal }
        }
        #expect(outcome.title == "Draft" && outcome.rating == 5, "the whole local model is sent, as Amplify Swift does")
    }

    @Test("optimistic concurrency, handler merges: both edits survive")
    func optimisticRetryMerged() async throws {
        let outcome = try await editConcurrently(server: { $0.conflictHandler = .optimisticConcurrency }) {
            $0.conflictHandler = { conflict in
                guard var merged = conflict.remote as? Post, let local = conflict.local as? Post else { return .applyRemote }
                merged.rating = local.rating
                return .retry(merged)
            }
        }
        #expect(outcome.title == "Renamed on one" && outcome.rating == 5)
    }

    @Test("a Lambda conflict handler on the server resolves the stale update")
    func lambda() async throws {
        let outcome = try await editConcurrently(server: {
            $0.conflictHandler = .lambda
            $0.lambdaConflictHandler = { request in
                // Keep the stored title, take the incoming rating.
                var item = request.existingItem.objectValue ?? [:]
                item["rating"] = request.newItem["rating"]
                return .resolve(item)
            }
        })
        #expect(outcome.title == "Renamed on one" && outcome.rating == 5)
        #expect(outcome.refusals.isEmpty)
    }
}
