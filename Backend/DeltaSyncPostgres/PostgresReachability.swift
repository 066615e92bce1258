import DeltaSyncCore
import NIOConcurrencyHelpers

/// Whether the store's database is known to be down, and why: set when the instance channel's
/// listening connection is lost or a statement fails for a lost connection, cleared when a
/// connection is made again.
///
/// While it is down, a transaction waits at most ``leaseLimit`` for a connection, then fails
/// with `ServiceUnavailableException` (HTTP 503 with `Retry-After`, which clients retry), instead
/// of waiting for the pool until the request's 30-second limit.
final class PostgresReachability: Sendable {
    /// How long a transaction waits for a connection while the database is known to be down.
    static let leaseLimit: Duration = .seconds(2)

    private let outage = NIOLockedValueBox<String?>(nil)

    /// Why the database is down; `nil` when it is not known to be.
    var down: String? { outage.withLockedValue { $0 } }

    func markDown(_ reason: String) {
        outage.withLockedValue { $0 = reason }
    }

    func markUp() {
        outage.withLockedValue { $0 = nil }
    }
}
