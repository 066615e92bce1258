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

    /// Sets aside `count` items before a page is read. Resolvers run side by side: counting
    /// items only once read let a thousand nested connections each read a page past the budget.
    ///
    /// - Throws: ``AppSyncError`` (`LimitExceededError`) when fewer than `count` are left; nothing
    ///   is set aside then.
    func reserveItems(_ count: Int) throws {
        let reserved = spent.withLockedValue { spent -> Bool in
            guard spent.items + count <= limits.maxItems else { return false }
            spent.items += count
            return true
        }
        guard reserved else {
            throw AppSyncError(
                .limitExceeded,
                "The request reads more than \(limits.maxItems) items; lower the limit of its lists or page with nextToken.")
        }
    }

    /// Gives back what a page reserved with ``reserveItems(_:)`` did not use.
    func settleItems(reserved: Int, used: Int) {
        guard used < reserved else { return }
        spent.withLockedValue { $0.items -= reserved - used }
    }
}
