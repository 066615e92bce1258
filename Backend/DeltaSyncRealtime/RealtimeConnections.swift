import DeltaSyncAuth
import DeltaSyncCore
import Foundation
import NIOConcurrencyHelpers

/// The open realtime connections: listed with their subscriptions for the fixture API and the
/// console, closed on request (a test of how clients recover from a dropped socket), and closed
/// with 1001 when the server shuts down (``RealtimeDrain``).
package final class RealtimeConnections: Sendable {
    /// One open connection as listed.
    package struct Listing: Sendable {
        package var id: Int
        package var connectedAt: Date
        package var identity: Identity?
        /// Client id, subscription field and the mutations it hears, by start order.
        package var subscriptions: [(id: String, field: String, mutations: [String])]
    }

    /// Why a connection is asked to close.
    enum Closing: Sendable {
        /// The server is shutting down: 1001.
        case shutdown
        /// The fixture API: 1001, or (`drop`) the socket closed without a close frame.
        case fixture(drop: Bool)
        /// The server stops without waiting: the socket closed at once.
        case abort
    }

    private struct Entry {
        let connectedAt: Date
        let identity: Identity?
        let subscriptions: Subscriptions
        let close: @Sendable (Closing) -> Void
    }

    private struct State {
        var entries: [Int: Entry] = [:]
        var nextID = 1
        var draining = false
        var aborting = false
    }

    private let state = NIOLockedValueBox(State())
    /// Finished once the server is draining and the last connection has ended.
    private let emptied = AsyncStream.makeStream(of: Void.self)

    package init() {}

    /// Takes in a connection; `close` asks it to close. Asked at once when the server is
    /// already shutting down.
    ///
    /// - Returns: what ``unregister(_:)`` takes once the connection has ended.
    func register(identity: Identity?, subscriptions: Subscriptions, close: @escaping @Sendable (Closing) -> Void) -> Int {
        let entry = Entry(connectedAt: Date(), identity: identity, subscriptions: subscriptions, close: close)
        let (id, draining, aborting) = state.withLockedValue { state in
            let id = state.nextID
            state.nextID += 1
            state.entries[id] = entry
            return (id, state.draining, state.aborting)
        }
        if aborting {
            close(.abort)
        } else if draining {
            close(.shutdown)
        }
        return id
    }

    /// The connection `id` has ended (its close frame, if any, is out).
    func unregister(_ id: Int) {
        let drained = state.withLockedValue { state in
            state.entries[id] = nil
            return state.draining && state.entries.isEmpty
        }
        if drained { emptied.continuation.finish() }
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
        for entry in entries { entry.close(.fixture(drop: drop)) }
        return entries.count
    }

    /// Closes every connection with 1001, and every later one as it arrives, then waits until
    /// all have ended or `limit` has passed.
    func drain(limit: Duration) async {
        let entries = state.withLockedValue { state in
            state.draining = true
            return Array(state.entries.values)
        }
        if entries.isEmpty { emptied.continuation.finish() }
        for entry in entries { entry.close(.shutdown) }
        let emptied = emptied.stream
        await withTaskGroup(of: Void.self) { group in
            group.addTask { for await _ in emptied {} }
            group.addTask { try? await Task.sleep(for: limit) }
            await group.next()
            group.cancelAll()
        }
        // No task serves a socket, so nothing else would close those still open.
        abort()
    }

    /// Closes every connection's socket at once, and every later one as it arrives: the server
    /// is stopping without a drain (its task was cancelled), or the drain's time is up.
    func abort() {
        let entries = state.withLockedValue { state in
            state.draining = true
            state.aborting = true
            return Array(state.entries.values)
        }
        for entry in entries { entry.close(.abort) }
    }
}
