import DeltaSyncAuth
import DeltaSyncCore
import Foundation
import NIOConcurrencyHelpers

/// The most recent requests the server answered, newest last, for the fixture API's
/// `/admin/requests` and the console: what ran, who sent it, how it ended, how long it took.
package final class RequestLog: Sendable {
    package struct Entry: Sendable, Equatable {
        /// When the request arrived, epoch milliseconds of real time.
        var at: Int
        /// `query ListPosts` (or the root fields of an unnamed operation), `subscribe onCreatePost`, ...
        package var operation: String
        package var authMode: String?
        /// `sub`/`username` for tokens, the role for IAM, `nil` for API keys.
        var identity: String?
        /// `ok`, or the error types the response carried.
        package var outcome: String
        var durationMilliseconds: Double
        /// The steps of project resolvers (templates, functions, generated data steps) the
        /// request ran: each one's field, name, data source request, output or error.
        package var steps: [JSONValue]

        package init(
            at: Int, operation: String, authMode: String?, identity: String?, outcome: String, durationMilliseconds: Double,
            steps: [JSONValue] = []
        ) {
            self.at = at
            self.operation = operation
            self.authMode = authMode
            self.identity = identity
            self.outcome = outcome
            self.durationMilliseconds = durationMilliseconds
            self.steps = steps
        }

        var json: JSONValue {
            [
                "at": .string(AWSDateTimeFormat.string(fromMilliseconds: at)),
                "operation": .string(operation),
                "authMode": authMode.map(JSONValue.string) ?? .null,
                "identity": identity.map(JSONValue.string) ?? .null,
                "outcome": .string(outcome),
                "durationMilliseconds": .double((durationMilliseconds * 1000).rounded() / 1000),
                "steps": .array(steps),
            ]
        }
    }

    private struct Ring {
        var entries: [Entry] = []
        var next = 0
    }

    let capacity: Int
    private let ring = NIOLockedValueBox(Ring())

    package init(capacity: Int = 500) {
        self.capacity = capacity
    }

    package func append(_ entry: Entry) {
        ring.withLockedValue { ring in
            if ring.entries.count < capacity {
                ring.entries.append(entry)
            } else {
                ring.entries[ring.next] = entry
                ring.next = (ring.next + 1) % capacity
            }
        }
    }

    /// Up to `limit` entries, newest first.
    package func recent(limit: Int) -> [Entry] {
        let ordered = ring.withLockedValue { ring in Array(ring.entries[ring.next...] + ring.entries[..<ring.next]) }
        return Array(ordered.reversed().prefix(limit))
    }

    /// How an identity is shown in the log.
    package static func describe(_ identity: Identity?) -> (mode: String?, who: String?) {
        guard let identity else { return (nil, nil) }
        let who: String?
        switch identity.mode {
        case .apiKey: who = nil
        case .iam: who = identity.iamRole?.rawValue
        case .lambda: who = identity.resolverContext.isEmpty ? nil : JSONValue.object(identity.resolverContext).jsonText
        case .userPools, .oidc: who = identity.username ?? identity.sub
        }
        return (identity.mode.rawValue, who)
    }
}
