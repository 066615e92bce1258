import DeltaSyncClient
import Foundation
import Testing

struct SyncConfigurationTests {
    @Test("the realtime URL follows Amplify: appsync-realtime-api for AppSync, /realtime for any other host", arguments: [
        ("https://abcdefghijklmnopqrstuvwxyz.appsync-api.eu-west-1.amazonaws.com/graphql",
         "wss://abcdefghijklmnopqrstuvwxyz.appsync-realtime-api.eu-west-1.amazonaws.com/graphql"),
        ("https://api.example.com/graphql", "wss://api.example.com/graphql/realtime"),
        ("http://127.0.0.1:20002/graphql", "ws://127.0.0.1:20002/graphql/realtime"),
        ("http://localhost:20002/graphql/", "ws://localhost:20002/graphql/realtime"),
    ])
    func realtimeURL(graphQL: String, realtime: String) {
        #expect(SyncEndpoint(url: URL(string: graphQL)!, apiKey: "da2-x").realtimeURL.absoluteString == realtime)
    }

    @Test("retries back off exponentially, with jitter under one base, up to the maximum")
    func backoff() {
        let backoff = RetryBackoff(base: .milliseconds(100), maximum: .seconds(2))
        for attempt in 0..<8 {
            let floor = min(Duration.milliseconds(100) * (1 << attempt), .seconds(2))
            for _ in 0..<20 {
                let delay = backoff.delay(attempt: attempt)
                #expect(delay >= floor && delay < floor + .milliseconds(100), "attempt \(attempt): \(delay)")
            }
        }
        #expect(backoff.delay(attempt: 1_000) < .milliseconds(2_100), "huge attempt counts stay capped")
    }
}
