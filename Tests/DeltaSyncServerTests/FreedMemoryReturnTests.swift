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
}
#endif
