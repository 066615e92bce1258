import DeltaSyncAuth
import Foundation

/// The server's open realtime connections as the fixture API lists and closes them
/// (`GET /admin/connections`, `POST /admin/connections/close`, the console).
package protocol FixtureConnections: Sendable {
    /// How many connections are open.
    var count: Int { get }

    /// Every open connection, oldest first.
    func list() -> [ConnectionListing]

    /// Closes every open connection: with a close frame (1001, going away) or, with `drop`,
    /// by closing the socket as a lost network would. Returns how many there were.
    @discardableResult
    func closeAll(drop: Bool) -> Int
}

/// One open realtime connection as listed.
package struct ConnectionListing: Sendable {
    package var id: Int
    package var connectedAt: Date
    /// Who the connection's handshake named; `nil` when it was refused.
    package var identity: Identity?
    /// Client id, subscription field and the mutations it hears, by start order.
    package var subscriptions: [(id: String, field: String, mutations: [String])]

    package init(id: Int, connectedAt: Date, identity: Identity?, subscriptions: [(id: String, field: String, mutations: [String])]) {
        self.id = id
        self.connectedAt = connectedAt
        self.identity = identity
        self.subscriptions = subscriptions
    }
}
