import DeltaSyncCore
import NIOConcurrencyHelpers

/// Per-request record of how sync queries reached their items, returned in
/// `extensions.deltasync.plans` when the request carries `x-deltasync-explain: 1`.
final class QueryPlanLog: Sendable {
    let explain: Bool
    private let plans = NIOLockedValueBox<[JSONValue]>([])

    init(explain: Bool) {
        self.explain = explain
    }

    func record(_ plan: JSONValue) {
        guard explain else { return }
        plans.withLockedValue { $0.append(plan) }
    }

    var recorded: [JSONValue] { plans.withLockedValue { $0 } }
}
