#if canImport(Glibc)
import Foundation
import Testing

@testable import DeltaSyncServer

/// What ``FreedMemoryReturn`` reads and calls on Linux; docs/benchmarks.md ("The worst accepted
/// request") measures what it gives back.
@Suite struct FreedMemoryReturnTests {
    @Test("the resident size it reads is the kernel's VmRSS, and glibc's malloc_trim is found")
    func readsTheResidentSizeAndFindsTrim() throws {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
        let kilobytes = try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
        let read = try #require(FreedMemoryReturn.residentBytes())
        // Read a moment apart in a running test process: within a quarter of each other.
        #expect(abs(read - kilobytes * 1024) < kilobytes * 1024 / 4, "\(read) against \(kilobytes) KB")
        let trim = try #require(FreedMemoryReturn.mallocTrim)
        #expect(trim(0) >= 0)
    }

    @Test("a trim when memory piles up, and once more after a load ends; never near the floor")
    func schedule() {
        let mb = 1 << 20
        let start = ContinuousClock.now
        var trims = TrimSchedule(growth: 32 * mb, resident: 60 * mb, now: start)
        var decided: Bool
        decided = trims.shouldTrim(resident: 80 * mb, now: start + .seconds(2))
        #expect(!decided, "within the growth of the floor")
        decided = trims.shouldTrim(resident: 300 * mb, now: start + .seconds(4))
        #expect(decided, "piled up")
        trims.trimmed(resident: 290 * mb, now: start + .seconds(4))
        // The load goes on: little was freed, and the last trim is recent.
        decided = trims.shouldTrim(resident: 300 * mb, now: start + .seconds(6))
        #expect(!decided)
        // The load ended and freed its memory, which stays resident: trimmed once the last trim is old.
        decided = trims.shouldTrim(resident: 295 * mb, now: start + .seconds(4) + TrimSchedule.settleTime)
        #expect(decided)
        trims.trimmed(resident: 70 * mb, now: start + .seconds(10))
        decided = trims.shouldTrim(resident: 70 * mb, now: start + .seconds(60))
        #expect(!decided, "back near the floor")
        #expect(trims.floor == 60 * mb)
    }
}
#endif
