import DeltaSyncCore
import DeltaSyncGraphQL
import Foundation
import NIOConcurrencyHelpers

/// The active faults, asked by mutation resolvers (``MutationFaults``), the GraphQL route
/// (delays) and the realtime handshake (refused connections).
///
/// Empty unless a test adds to it; the checks on the request path then cost one lock each.
package final class FaultList: MutationFaults {
    private struct State {
        var faults: [Fault] = []
        var nextID = 1
    }

    private let state = NIOLockedValueBox(State())
    /// Real time: refused connections last real seconds even while the fixture clock is frozen.
    private let now: @Sendable () -> Date

    package init(now: @escaping @Sendable () -> Date = { Date() }) {
        self.now = now
    }

    func add(_ fault: Fault) -> Fault {
        state.withLockedValue { state in
            var fault = fault
            fault.id = "f\(state.nextID)"
            state.nextID += 1
            state.faults.append(fault)
            return fault
        }
    }

    var all: [Fault] {
        let now = now()
        return state.withLockedValue { state in
            state.faults.removeAll { Self.expired($0, now: now) }
            return state.faults
        }
    }

    /// Removes every fault, or the one with `id`; returns how many went.
    func clear(id: String? = nil) -> Int {
        state.withLockedValue { state in
            let before = state.faults.count
            state.faults.removeAll { id == nil || $0.id == id }
            return before - state.faults.count
        }
    }

    package func take(for field: String) -> MutationFault? {
        use { kind in
            switch kind {
            case .mutationError(field, let errorType, let message):
                return .error(AppSyncError(AppSyncErrorType(rawValue: errorType), message))
            case .conflict(field):
                return .conflict
            default:
                return nil
            }
        }
    }

    /// How long the next HTTP GraphQL response waits; `nil` for not at all.
    package func takeDelay() -> Duration? {
        use { kind in
            if case .delay(let duration) = kind { return duration }
            return nil
        }
    }

    /// Whether realtime handshakes are refused now.
    package var refusesConnections: Bool {
        let now = now()
        return state.withLockedValue { state in
            state.faults.contains { fault in
                if case .refuseConnections(let until) = fault.kind { return until > now }
                return false
            }
        }
    }

    /// The first fault `match` applies to, counted as used (and removed when used up).
    private func use<T>(_ match: (Fault.Kind) -> T?) -> T? {
        state.withLockedValue { state in
            guard !state.faults.isEmpty else { return nil }
            for index in state.faults.indices {
                guard let result = match(state.faults[index].kind) else { continue }
                if let remaining = state.faults[index].remaining {
                    if remaining <= 1 {
                        state.faults.remove(at: index)
                    } else {
                        state.faults[index].remaining = remaining - 1
                    }
                }
                return result
            }
            return nil
        }
    }

    private static func expired(_ fault: Fault, now: Date) -> Bool {
        if case .refuseConnections(let until) = fault.kind { return until <= now }
        return false
    }
}
