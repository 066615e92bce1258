import Foundation

/// A value behind a lock. `Synchronization.Mutex` needs macOS 15 / iOS 18; the client supports
/// macOS 14 / iOS 17.
package final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) {
        self.value = value
    }

    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
