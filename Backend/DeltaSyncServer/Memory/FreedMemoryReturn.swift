#if canImport(Glibc)
import Glibc
#endif
import NIOConcurrencyHelpers
import ServiceLifecycle

/// Hands the heap memory the process has freed back to the system, in the background.
///
/// glibc's allocator keeps what a large request freed in its arenas for later allocations, so
/// the resident size stays near the request's peak long after the request ended. Every
/// ``interval`` this service reads the process's resident size and trims every arena
/// (`malloc_trim`) when ``TrimSchedule`` says so. Other platforms' allocators return memory
/// themselves: there the service does nothing.
struct FreedMemoryReturn: Service {
    /// How often the resident size is read.
    let interval: Duration
    /// Growth of the resident size that calls for a trim.
    let growth: Int

    func run() async throws {
        #if canImport(Glibc)
        guard let trim = Self.mallocTrim else { return }
        do {
            try await cancelWhenGracefulShutdown {
                var trims = TrimSchedule(growth: growth, resident: Self.residentBytes() ?? 0, now: .now)
                while !Task.isCancelled {
                    try await Task.sleep(for: interval)
                    guard let resident = Self.residentBytes(), trims.shouldTrim(resident: resident, now: .now) else { continue }
                    _ = trim(0)
                    trims.trimmed(resident: Self.residentBytes() ?? resident, now: .now)
                }
            }
        } catch is CancellationError {
            return
        }
        #endif
    }

    #if canImport(Glibc)
    /// glibc's `malloc_trim`, which Swift's Glibc module does not declare (it is in `malloc.h`),
    /// looked up once; `nil` on a C library without it (musl).
    static let mallocTrim: (@convention(c) (Int) -> Int32)? = {
        guard let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
    }()

    /// The process's resident size, from `/proc/self/statm` (its second field, in pages).
    static func residentBytes() -> Int? {
        guard let file = fopen("/proc/self/statm", "r") else { return nil }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 128)
        guard fgets(&line, Int32(line.count), file) != nil else { return nil }
        let fields = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).split(separator: " ")
        guard fields.count >= 2, let pages = Int(fields[1]) else { return nil }
        return pages * sysconf(Int32(_SC_PAGESIZE))
    }
    #endif
}

/// When to trim: when the resident size is more than `growth` above the lowest it has been, and
/// it either grew by `growth` since the last trim (memory is piling up) or that trim is
/// ``settleTime`` old (a load that was trimmed in its middle has ended, and what it freed is
/// still held). Memory that stays in use is trimmed at most every ``settleTime``.
struct TrimSchedule {
    static let settleTime: Duration = .seconds(5)
    let growth: Int
    private(set) var floor: Int
    private var lastTrim: (resident: Int, at: ContinuousClock.Instant)

    init(growth: Int, resident: Int, now: ContinuousClock.Instant) {
        self.growth = growth
        floor = resident
        lastTrim = (resident, now)
    }

    mutating func shouldTrim(resident: Int, now: ContinuousClock.Instant) -> Bool {
        floor = min(floor, resident)
        guard resident > floor + growth else { return false }
        return resident > lastTrim.resident + growth || now - lastTrim.at >= Self.settleTime
    }

    mutating func trimmed(resident: Int, now: ContinuousClock.Instant) {
        lastTrim = (resident, now)
        floor = min(floor, resident)
    }
}

