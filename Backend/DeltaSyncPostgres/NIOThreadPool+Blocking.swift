import NIOPosix

extension NIOThreadPool {
    /// Runs `body` on one of the pool's threads and returns its result.
    ///
    /// Unlike `runIfActive`, the pool lets go of `body` before the caller resumes: the store's
    /// transaction bodies are non-escaping closures made escapable with
    /// `withoutActuallyEscaping`, which traps if anything still holds them when it returns.
    func runBlocking<R: Sendable>(_ body: @escaping @Sendable () throws -> R) async throws -> R {
        let box = BodyBox(body)
        return try await withCheckedThrowingContinuation { continuation in
            submit { state in
                let result: Result<R, any Error>
                do {
                    // Taken out of the box, used and released in this scope: nothing holds
                    // `body` once the continuation resumes.
                    guard let body = box.take() else { return }
                    guard case .active = state else {
                        continuation.resume(throwing: CancellationError())
                        return
                    }
                    result = Result { try body() }
                }
                continuation.resume(with: result)
            }
        }
    }
}

/// Hands a closure to one pool thread. `@unchecked Sendable`: written before `submit`, read and
/// cleared once on the thread that runs the work item (`submit` orders the two).
private final class BodyBox<R>: @unchecked Sendable {
    private var body: (@Sendable () throws -> R)?

    init(_ body: @escaping @Sendable () throws -> R) {
        self.body = body
    }

    func take() -> (@Sendable () throws -> R)? {
        defer { body = nil }
        return body
    }
}
