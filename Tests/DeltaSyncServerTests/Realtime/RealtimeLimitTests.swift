import DeltaSyncCore
import Foundation
import Testing

@Suite struct RealtimeLimitTests {
    @Test("a subscription nested past the document limits gets an error with its id, and the connection keeps working")
    func deepSubscriptionIsRefused() async throws {
        try await RealtimeTests.withServer { live in
            let client = try await live.connected()
            let deep = "subscription { onCreatePost { " + String(repeating: "blog { posts { items { ", count: 1_000)
                + "id" + String(repeating: " } } }", count: 1_000) + " } }"
            client.start(id: "deep", query: deep)
            let error = try await client.next("error")
            #expect(error["id"] == "deep")
            #expect(error["payload"]["errors"][0]["message"].stringValue?.hasPrefix("Validation error") == true)

            client.start(id: "ok", query: RealtimeTests.onCreatePost)
            let ack = try await client.next("start_ack")
            #expect(ack["id"] == "ok")
            _ = await client.close()
        }
    }
}
