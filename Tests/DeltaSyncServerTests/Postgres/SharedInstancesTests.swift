import DeltaSyncCore
import DeltaSyncPostgres
import DeltaSyncPostgresTestSupport
import DeltaSyncServer
import DeltaSyncTesting
import Foundation
import Testing

/// Two servers on one PostgreSQL schema, as two `deltasync serve` processes behind a load
/// balancer: what one writes reaches the other's subscribers, once each, in version order.
@Suite struct SharedInstancesTests {
    /// Two started servers, each with a store of its own on one fresh schema.
    static func withInstances(_ body: (RealtimeTests.Live, RealtimeTests.Live) async throws -> Void) async throws {
        let project = try ExampleSchema.blogProject()
        try await PostgresCluster.withStore(project.schema, pool: 2) { first in
            let second = try await PostgresItemStore.connect(
                settings: first.settings, schema: project.schema)
            let a = try await TestServer(storage: .store(first), project: project).server
            let b = try await TestServer(storage: .store(second), project: project).server
            let (runningA, runningB) = (try await a.start(), try await b.start())
            do {
                try await body(RealtimeTests.Live(running: runningA, server: a), RealtimeTests.Live(running: runningB, server: b))
            } catch {
                await runningA.stop()
                await runningB.stop()
                await second.shutdown()
                throw error
            }
            await runningA.stop()
            await runningB.stop()
            await second.shutdown()
        }
    }

    static let onCreatePost = "subscription { onCreatePost { id title body _version } }"
    static let onUpdatePost = "subscription { onUpdatePost { id title _version } }"
    static let createPost = "mutation($i: CreatePostInput!) { createPost(input: $i) { id title body _version } }"
    static let updatePost = "mutation($i: UpdatePostInput!) { updatePost(input: $i) { id title _version } }"

    @Test func aSubscriberOnOneInstanceGetsTheOtherInstancesMutationOnce() async throws {
        try await Self.withInstances { a, b in
            let onB = try await b.connected()
            onB.start(id: "1", query: Self.onCreatePost)
            _ = try await onB.next("start_ack")
            let onA = try await a.connected()
            onA.start(id: "1", query: Self.onCreatePost)
            _ = try await onA.next("start_ack")

            _ = try await a.mutate(Self.createPost, ["i": ["id": "p1", "blogID": "b1", "title": "Written on A"]])
            let fromA = try await onB.next("data")
            #expect(fromA["payload"]["data"]["onCreatePost"] == ["id": "p1", "title": "Written on A", "body": nil, "_version": 1])
            #expect(try await onA.next("data")["payload"]["data"]["onCreatePost"]["id"] == "p1")

            // The next event each one gets is B's own: A's reached each subscriber once.
            _ = try await b.mutate(Self.createPost, ["i": ["id": "p2", "blogID": "b1", "title": "Written on B"]])
            #expect(try await onB.next("data")["payload"]["data"]["onCreatePost"]["id"] == "p2")
            #expect(try await onA.next("data")["payload"]["data"]["onCreatePost"]["id"] == "p2")
            _ = await onA.close()
            _ = await onB.close()
        }
    }

    @Test func anEventLargerThanANotificationCrossesWhole() async throws {
        try await Self.withInstances { a, b in
            let onB = try await b.connected()
            onB.start(id: "1", query: Self.onCreatePost)
            _ = try await onB.next("start_ack")
            // NOTIFY carries under 8,000 bytes: this goes through the messages table.
            let body = String((0..<30_000).map { _ in "abcdefghij".randomElement()! })
            _ = try await a.mutate(Self.createPost, ["i": ["id": "big", "blogID": "b1", "title": "Large", "body": .string(body)]])
            let event = try await onB.next("data")
            #expect(event["payload"]["data"]["onCreatePost"]["body"] == .string(body))
            _ = await onB.close()
        }
    }

    @Test func updatesFromBothInstancesArriveInVersionOrder() async throws {
        try await Self.withInstances { a, b in
            _ = try await a.mutate(Self.createPost, ["i": ["id": "p1", "blogID": "b1", "title": "v1"]])
            let watchers = [try await a.connected(), try await b.connected()]
            for watcher in watchers {
                watcher.start(id: "u", query: Self.onUpdatePost)
                _ = try await watcher.next("start_ack")
            }
            // Writers on both instances at once, each update at the version it last saw, so
            // the versions interleave between the instances.
            let rounds = 20
            try await withThrowingTaskGroup(of: Void.self) { group in
                for live in [a, b] {
                    group.addTask {
                        for round in 0..<rounds {
                            var version = 0
                            repeat {
                                let current = try await live.mutate("query { getPost(id: \"p1\") { _version } }")
                                version = current["data"]["getPost"]["_version"].intValue ?? 0
                                let result = try await live.mutate(
                                    Self.updatePost, ["i": ["id": "p1", "title": .string("round \(round)"), "_version": .int(version)]])
                                if result["errors"].arrayValue?.isEmpty ?? true { break }
                            } while true
                        }
                    }
                }
                try await group.waitForAll()
            }
            let final = try await a.mutate("query { getPost(id: \"p1\") { _version } }")["data"]["getPost"]["_version"].intValue ?? 0
            #expect(final >= 1 + 2 * rounds)
            for watcher in watchers {
                var last = 0
                while last < final {
                    let version = try await watcher.next("data")["payload"]["data"]["onUpdatePost"]["_version"].intValue ?? 0
                    #expect(version > last, "versions arrive increasing, each once")
                    last = version
                }
                _ = await watcher.close()
            }
        }
    }
}
