#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's open-file limit, which bounds how many connections a server holds (one
/// descriptor each; ``ConnectionConfiguration/maxConnections`` is taken from it).
///
/// Shells and service managers often start processes with a soft limit of 1,024 under a hard
/// limit a thousand times larger; any process may raise its own soft limit up to the hard one,
/// so `deltasync serve` does, instead of asking every operator to run `ulimit -n` first. Only
/// the command does it: a library must not change its host process's limits.
///
/// ```swift
/// OpenFileLimit.raise()          // in a server's own executable, before DeltaSyncServer(...)
/// let slots = OpenFileLimit.soft // what ConnectionRegistry sizes itself from
/// ```
public enum OpenFileLimit {
    /// The soft limit now (`ulimit -n`); `Int32.max` when it cannot be read or is unlimited.
    public static var soft: Int {
        var limit = rlimit()
        // `RLIM_INFINITY` is all ones (or near it): the clamp keeps it a usable number.
        guard read(&limit) else { return Int(Int32.max) }
        return min(Int(clamping: limit.rlim_cur), Int(Int32.max))
    }

    /// Raises the soft limit to the hard one (on macOS to at most `OPEN_MAX`, the most
    /// `setrlimit` accepts there) and returns the soft limit in force afterwards.
    @discardableResult
    public static func raise() -> Int {
        var limit = rlimit()
        guard read(&limit) else { return 0 }
        var wanted = limit.rlim_max
        #if canImport(Darwin)
        wanted = min(wanted, rlim_t(OPEN_MAX))
        #endif
        if wanted > limit.rlim_cur {
            var raised = limit
            raised.rlim_cur = wanted
            if write(raised) { limit = raised }
        }
        return Int(clamping: limit.rlim_cur)
    }

    private static func read(_ limit: inout rlimit) -> Bool {
        #if canImport(Glibc)
        getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0
        #else
        getrlimit(RLIMIT_NOFILE, &limit) == 0
        #endif
    }

    private static func write(_ limit: rlimit) -> Bool {
        var limit = limit
        #if canImport(Glibc)
        return setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0
        #else
        return setrlimit(RLIMIT_NOFILE, &limit) == 0
        #endif
    }
}
