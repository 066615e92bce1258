import DeltaSyncCore

extension Simulation {
    /// A quiet point's checks, as the random mode makes them: every device converges
    /// (``converge(timeout:)``), and the server's conflict log holds no failure of a conflict
    /// handler. A Lambda handler that throws, answers something the server cannot store or
    /// answers RESOLVE to a delete leaves the devices converged (each takes the server's item
    /// back), so only the log shows that the team's handler is broken.
    ///
    /// - Throws: ``SimulationError`` saying why the devices differ, or which conflict the
    ///   handler failed on and how.
    public func check(timeout: Duration = .seconds(30)) async throws {
        try await converge(timeout: timeout)
        let failures = try await conflicts().filter { $0.outcome.hasPrefix("error") }
        guard let first = failures.first else { return }
        throw SimulationError(
            "the conflict handler failed \(failures.count) time(s); first on \(first.model) \(JSONValue.object(first.key).jsonText) "
                + "(\(first.mutation) of version \(first.incomingVersion) over \(first.storedVersion)): \(first.outcome)")
    }
}
