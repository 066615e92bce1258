import AsyncHTTPClient
import DeltaSyncCore
import DeltaSyncServer
import DeltaSyncTesting
import Foundation
import HTTPTypes
import Testing

/// The fixture API against realtime subscribers on a real socket: another device's change
/// delivered, connections listed and closed, handshakes refused; and the Prometheus metrics.
@Suite struct FixtureRealtimeTests {
    static let onUpdateBlog = "subscription { onUpdateBlog { id name _version } }"

    @Test func anOutOfBandChangeReachesSubscribersWithANewVersion() async throws {
        try await RealtimeTests.withServer { live in
            let fixture = live.server.fixture
            _ = try await live.mutate("mutation { createBlog(input: {id: \"b1\", name: \"mine\"}) { id } }")
            let client = try await live.connected()
            client.start(id: "s1", query: Self.onUpdateBlog)
            _ = try await client.next("start_ack")
            client.start(id: "s2", query: "subscription { onUpdateBlog { nope } }")
            _ = try await client.next("error")
            // Starts are in the request log with their outcome, newest first.
            let starts = fixture.requests.recent(limit: 10).filter { $0.operation.hasPrefix("subscription") }
            #expect(starts.map(\.operation) == ["subscription (not started)", "subscription onUpdateBlog"])
            #expect(starts.map(\.outcome) == ["error", "ok"])
            #expect(starts[1].authMode == "API_KEY")
            let listed = fixture.connections.list()
            #expect(listed.count == 1)
            #expect(listed.first?.subscriptions.map(\.field) == ["onUpdateBlog"])
            let changed = try await fixture.change(model: "Blog", fields: ["id": "b1", "name": "from another device"])
            #expect(changed["_version"] == 2)
            let event = try await client.next("data")
            #expect(event["payload"]["data"]["onUpdateBlog"]["name"] == "from another device")
            #expect(event["payload"]["data"]["onUpdateBlog"]["_version"] == 2)
            _ = await client.close()
        }
    }

    @Test func closingConnectionsSendsGoingAwayAndRefusalsLastTheirTime() async throws {
        try await RealtimeTests.withServer { live in
            let fixture = live.server.fixture
            let client = try await live.connected()
            #expect(fixture.closeConnections() == 1)
            let frame = try await client.closed()
            #expect(frame?.closeCode == .goingAway)
            let dropped = try await live.connected()
            #expect(fixture.closeConnections(drop: true) == 1)
            // No close frame: the socket just ends, as a lost network ends it.
            #expect(try await dropped.closed() == nil)
            let fault = fixture.addFault(Fault(kind: .refuseConnections(until: Date().addingTimeInterval(60))))
            let refused = live.client()
            await #expect(throws: (any Error).self) { _ = try await refused.initialize() }
            fixture.clearFaults(id: fault.id)
            let again = try await live.connected()
            _ = await again.close()
        }
    }

    @Test func metricsCountRequestsConflictsSyncPagesAndRealtime() async throws {
        try await RealtimeTests.withServer { live in
            let client = try await live.connected()
            client.start(id: "s1", query: Self.onUpdateBlog)
            _ = try await client.next("start_ack")
            _ = try await live.mutate("mutation { createBlog(input: {id: \"b1\", name: \"n\"}) { id } }")
            _ = try await live.mutate("mutation { updateBlog(input: {id: \"b1\", name: \"m\", _version: 1}) { id } }")
            _ = try await client.next("data")
            // A stale update: Automerge merges it.
            _ = try await live.mutate("mutation { updateBlog(input: {id: \"b1\", name: \"late\", _version: 1}) { id } }")
            _ = try await live.mutate("query { syncBlogs { items { id } startedAt } }")
            let text = try await Self.get("http://127.0.0.1:\(live.running.port)/metrics")
            for line in [
                "deltasync_requests_total{operation=\"createBlog\",outcome=\"ok\"} 1",
                "deltasync_requests_total{operation=\"updateBlog\",outcome=\"ok\"} 2",
                "deltasync_conflicts_total{handler=\"AUTOMERGE\",outcome=\"merged\"} 1",
                "deltasync_sync_pages_total{source=\"base\"} 1",
                "deltasync_sync_items_total{source=\"base\"} 1",
                "deltasync_realtime_connections 1",
                "deltasync_realtime_subscriptions 1",
                "deltasync_realtime_events_sent_total 2",
                "deltasync_request_duration_seconds_count{operation=\"createBlog\"} 1",
            ] {
                #expect(text.contains(line), "missing: \(line)")
            }
            _ = await client.close()
        }
    }

    static func get(_ url: String) async throws -> String {
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(10))
        return String(buffer: try await response.body.collect(upTo: 1 << 20))
    }
}
