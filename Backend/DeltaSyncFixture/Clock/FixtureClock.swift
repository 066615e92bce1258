import DeltaSyncCore
import DeltaSyncGraphQL
import Foundation
import NIOConcurrencyHelpers

/// The server's clock, which a test suite can stop, move forward or set through the fixture
/// API, so that delta and tombstone TTLs, sync windows and token expiry are tested in
/// milliseconds instead of hours.
///
/// ```swift
/// let clock = server.fixture.clock
/// clock.freeze()
/// clock.advance(by: .seconds(31 * 60))   // past the 30-minute delta TTL
/// clock.useRealTime()
/// ```
///
/// Everything that reads time reads it here: `_lastChangedAt`, `startedAt`, the TTLs and their
/// purge, API-key and token expiry. Setting it back never makes the change clock go back: the
/// store hands out change times strictly increasing whatever "now" says.
public final class FixtureClock: Sendable {
    /// How the clock relates to the time it is based on.
    public enum Mode: String, Sendable {
        /// Real time (or the configuration's clock).
        case real
        /// Stopped at one instant until moved or released.
        case frozen
        /// Running, a fixed amount ahead of (or behind) real time.
        case offset
    }

    private struct State {
        var frozenAt: Date?
        var offset: TimeInterval = 0
    }

    private let base: @Sendable () -> Date
    private let state = NIOLockedValueBox(State())

    /// - Parameter base: real time; the configuration's clock (`ServerConfiguration.clock`) in a server.
    public init(base: @escaping @Sendable () -> Date = { Date() }) {
        self.base = base
    }

    /// The server's now.
    public func now() -> Date {
        let (frozenAt, offset) = state.withLockedValue { ($0.frozenAt, $0.offset) }
        return frozenAt ?? base().addingTimeInterval(offset)
    }

    public var mode: Mode {
        state.withLockedValue { state in
            state.frozenAt != nil ? .frozen : state.offset != 0 ? .offset : .real
        }
    }

    /// How far the clock is from its base, in milliseconds (0 when frozen at real time).
    public var offsetMilliseconds: Int {
        let now = now()
        return Int((now.timeIntervalSince(base()) * 1000).rounded())
    }

    /// Stops the clock where it is.
    public func freeze() {
        let now = now()
        state.withLockedValue { $0.frozenAt = now }
    }

    /// Moves the clock forward; a frozen clock stays frozen at the later time.
    public func advance(by duration: Duration) {
        let seconds = Double(duration.milliseconds) / 1000
        state.withLockedValue { state in
            if let frozenAt = state.frozenAt {
                state.frozenAt = frozenAt.addingTimeInterval(seconds)
            } else {
                state.offset += seconds
            }
        }
    }

    /// Stops the clock at `date`.
    public func set(to date: Date) {
        state.withLockedValue { $0.frozenAt = date }
    }

    /// Back to real time.
    public func useRealTime() {
        state.withLockedValue { $0 = State() }
    }
}
