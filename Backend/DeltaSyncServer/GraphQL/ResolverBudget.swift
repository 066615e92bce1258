import DeltaSyncCore
import NIOConcurrencyHelpers

/// What one request has left of its ``ExecutionLimits``: resolvers run and items read. Once
/// spent, every further resolver fails at once, so a request that fans out stops within the
/// budget instead of reading on.
final class ResolverBudget: Sendable {
    private struct Spent {
        var resolvers = 0
        var items = 0
    }

    private let limits: ExecutionLimits
    private let spent = NIOLockedValueBox(Spent())

    init(_ limits: ExecutionLimits) {
        self.limits = limits
    }

    /// Counts one resolver about to run.
    ///
    /// - Throws: ``AppSyncError`` (`LimitExceededError`) past ``ExecutionLimits/maxResolvers``.
    func spendResolver() throws {
        let resolvers = spent.withLockedValue { spent -> Int in
            spent.resolvers += 1
            return spent.resolvers
        }
        guard resolvers <= limits.maxResolvers else {
            throw AppSyncError(
                .limitExceeded,
                "The request runs more than \(limits.maxResolvers) resolvers; select fewer nested connections or items.")
        }
    }

    /// Counts `count` items read.
    ///
    /// - Throws: ``AppSyncError`` (`LimitExceededError`) past ``ExecutionLimits/maxItems``.
    func spendItems(_ count: Int) throws {
        guard count > 0 else { return }
        let items = spent.withLockedValue { spent -> Int in
            spent.items += count
            return spent.items
        }
        guard items <= limits.maxItems else {
            throw AppSyncError(
                .limitExceeded,
                "The request reads more than \(limits.maxItems) items; lower the limit of its lists or page with nextToken.")
        }
    }
}
