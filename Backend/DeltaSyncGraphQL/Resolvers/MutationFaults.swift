import DeltaSyncCore

/// A failure the fixture API asked a mutation to have, instead of running it.
package enum MutationFault: Sendable, Equatable {
    /// Answer with this error (the field is null, the rest of the response stays).
    case error(AppSyncError)
    /// Answer `ConflictUnhandled` with the stored item, whatever the model's conflict handler.
    case conflict
}

/// Where mutation resolvers ask whether a fault is pending for their field (`createPost`):
/// the server's fault list when the fixture API is on, nothing otherwise.
package protocol MutationFaults: Sendable {
    /// The fault for this run of `field`, counted as used; `nil` to run it normally.
    func take(for field: String) -> MutationFault?
}
