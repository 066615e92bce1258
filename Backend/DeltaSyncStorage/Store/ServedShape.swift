/// The shape of API a server last served a store with, and since when: what lets a server
/// say at start that the store moves between versioned and plain, and what that means for
/// the clients of each.
///
/// ```swift
/// let before = try await store.write { tx in
///     try tx.exchangeServedShape(ServedShape(conflictDetection: "NONE", since: now))
/// }
/// // before?.conflictDetection == "VERSION": DataStore clients catch up when VERSION returns
/// ```
public struct ServedShape: Sendable, Equatable {
    /// `VERSION` or `NONE`, as `transform.conf.json` spells it.
    public var conflictDetection: String
    /// When a server first served this shape (epoch milliseconds).
    public var since: Int

    public init(conflictDetection: String, since: Int) {
        self.conflictDetection = conflictDetection
        self.since = since
    }
}

extension ServedShape {
    /// The meta keys both stores keep the record under.
    package static let modeKey = "servedConflictDetection"
    package static let sinceKey = "servedConflictDetectionSince"

    /// The record after a server with `shape` starts: unchanged when the shape is the same.
    package static func next(after recorded: ServedShape?, serving shape: ServedShape) -> ServedShape {
        guard let recorded, recorded.conflictDetection == shape.conflictDetection else { return shape }
        return recorded
    }
}
