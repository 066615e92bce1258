import DeltaSyncAuth
import DeltaSyncCore
import Foundation
import NIOConcurrencyHelpers

/// The open realtime connections, listed with their subscriptions for the fixture API and the
/// console, and closed on request (a test of how clients recover from a dropped socket).
package final class RealtimeConnections: Sendable {
    /// One open connection as listed.
    package struct Listing: Sendable {
        package var id: Int
        package var connectedAt: Date
        package var identity: Identity?
        /// Client id, subscription field and the mutations it hears, by start order.
        package var subscriptions: [(id: String, field: String, mutations: [String])]
    }

    private struct Entry {
        let connectedAt: Date
        let identity: Identity?
        let subscriptions: Subscriptions
        let close: @Sendable (_ drop: Bool) -> Void
    }

    private struct State {
        var entries: [Int: Entry] = [:]
        var nextID = 1
    }

    private let state = NIOLockedValueBox(State())

    package init() {}

    func register(identity: Identity?, subscriptions: Subscriptions, close: @escaping @Sendable (_ drop: Bool) -> Void) -> Int {
        let entry = Entry(connectedAt: Date(), identity: identity, subscriptions: subscriptions, close: close)
        return state.withLockedValue { state in
            let id = state.nextID
            state.nextID += 1
            state.entries[id] = entry
            return id
        }
    }

    func unregister(_ id: Int) {
        _ = state.withLockedValue { $0.entries.removeValue(forKey: id) }
    }

    package var count: Int { state.withLockedValue { $0.entries.count } }

    /// Every open connection, oldest first.
    package func list() -> [Listing] {
        let entries = state.withLockedValue { $0.entries }
        return entries.sorted { $0.key < $1.key }.map { id, entry in
            Listing(
                id: id, connectedAt: entry.connectedAt, identity: entry.identity,
                subscriptions: entry.subscriptions.all.sorted { $0.id < $1.id }.map { ($0.id, $0.field, $0.mutations) })
        }
    }

    /// Closes every open connection: with a close frame (1001, going away) or, with `drop`,
    /// by closing the socket as a lost network would. Returns how many there were.
    @discardableResult
    package func closeAll(drop: Bool) -> Int {
        let entries = state.withLockedValue { $0.entries.values }
        for entry in entries { entry.close(drop) }
        return entries.count
    }
}
