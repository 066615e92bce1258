import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncStorage
import Foundation

/// What a server says at start when the store it opens was last served with the other
/// conflict detection mode.
///
/// Nothing in the store needs converting either way: DeltaSync versions, logs and tombstones
/// every write whatever the API's shape, and only hides that from a plain API. So turning
/// conflict detection off does not bring tombstones back as items, and turning it on finds
/// every item with a `_version` and `_lastChangedAt` (AppSync does neither; see
/// docs/compatibility.md).
public struct ServedShapeChange: Sendable, Equatable {
    /// The mode the store was served with before, and since when.
    public let previous: ServedShape
    /// The mode this server serves.
    public let current: ConflictDetection

    /// The lines to show at start.
    public func message(deltaTTL: Duration) -> String {
        let since = AWSDateTimeFormat.string(fromMilliseconds: previous.since)
        switch current {
        case .none:
            return """
                The store was served with conflict detection \(previous.conflictDetection) (since \(since)); it is now NONE. \
                Nothing was converted: deleted items stay out of every answer (their tombstones go at the tombstone TTL), \
                and every write still gets a _version and a delta log entry, so DataStore clients that synced before \
                receive what changes now once conflict detection is VERSION again.
                """
        case .version:
            return """
                The store was served with conflict detection \(previous.conflictDetection) since \(since); it is now VERSION. \
                Nothing needed converting: every item has its _version and _lastChangedAt, kept while conflict detection \
                was off. DataStore clients receive what changed meanwhile by delta sync, or by a base sync (deleted items \
                included) when their last sync is older than the delta TTL (\(deltaTTL.milliseconds / 1000) s).
                """
        }
    }
}

extension DeltaSyncServer {
    /// Records in the store which mode this server serves it with, and returns what changed
    /// when a server last served it with the other mode (`nil` otherwise). `deltasync serve`
    /// calls it before it starts and prints the message; an embedder may do the same.
    ///
    /// ```swift
    /// if let change = try await server.recordServedShape() { print(change.message(deltaTTL: .seconds(1800))) }
    /// ```
    public func recordServedShape() async throws -> ServedShapeChange? {
        let mode = project.conflictDetection
        let now = Int((fixture.clock.now().timeIntervalSince1970 * 1000).rounded())
        let previous = try await store.write { tx in
            try tx.exchangeServedShape(ServedShape(conflictDetection: mode.rawValue, since: now))
        }
        guard let previous, previous.conflictDetection != mode.rawValue else { return nil }
        return ServedShapeChange(previous: previous, current: mode)
    }
}
