import DeltaSyncGraphQL
import DeltaSyncStorage
import Foundation
import Logging
import ServiceLifecycle

/// Purges delta log entries older than the delta TTL and tombstones past their `_ttl`, in the
/// background, the way DynamoDB's TTL removes them behind AppSync.
struct ExpiryService: Service {
    let store: any ItemStore
    let deltaTTL: Duration
    let interval: Duration
    let clock: @Sendable () -> Date
    let logger: Logger

    func run() async throws {
        do {
            try await cancelWhenGracefulShutdown {
                while !Task.isCancelled {
                    try await Task.sleep(for: interval)
                    await purgeOnce()
                }
            }
        } catch is CancellationError {
            return
        }
    }

    /// Removes what expired by the server's clock now; returns what went (nothing when the
    /// store failed, which is logged).
    @discardableResult
    func purgeOnce() async -> PurgeResult {
        let now = clock().timeIntervalSince1970
        let deltasBefore = Int((now * 1000).rounded()) - deltaTTL.milliseconds
        do {
            let purged = try await store.purgeExpired(deltasBefore: deltasBefore, tombstonesExpiredBy: Int(now))
            if purged.deltas > 0 || purged.tombstones > 0 {
                logger.debug("purged expired sync data", metadata: ["deltas": "\(purged.deltas)", "tombstones": "\(purged.tombstones)"])
            }
            return purged
        } catch {
            logger.error("purging expired deltas and tombstones failed", metadata: ["error": "\(error)"])
            return PurgeResult(deltas: 0, tombstones: 0)
        }
    }
}
