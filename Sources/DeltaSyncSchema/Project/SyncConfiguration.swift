/// How a model's conflicting writes are resolved: AppSync's `ConflictHandler` values.
public enum ConflictHandlerKind: String, Sendable {
    /// Merge the stale write into the stored item field by field (Amplify's default).
    case automerge = "AUTOMERGE"
    /// Reject a write whose `_version` is not the stored one.
    case optimisticConcurrency = "OPTIMISTIC_CONCURRENCY"
    /// Ask a Lambda function what to do.
    case lambda = "LAMBDA"
    /// No conflict detection on a versioned data source (`"ConflictDetection": "NONE"` in a
    /// `ResolverConfig` entry): every write applies as sent, whatever `_version` it carries,
    /// and versions still advance. Not a `ConflictHandler` value of Amplify's.
    case lastWriterWins = "NONE"
}

/// The conflict handlers of a project: one for the project, overridable per model, as the
/// `ResolverConfig` of Amplify's `transform.conf.json` sets them.
///
/// ```swift
/// let sync = SyncConfiguration(modelHandlers: ["Reaction": .optimisticConcurrency])
/// sync.handler(for: "Post")       // .automerge
/// sync.handler(for: "Reaction")   // .optimisticConcurrency
/// ```
public struct SyncConfiguration: Sendable, Equatable {
    /// The handler of every model without its own; Amplify's default is Auto Merge.
    public var projectHandler: ConflictHandlerKind
    /// Per-model handlers, by model name.
    public var modelHandlers: [String: ConflictHandlerKind]

    /// - Parameters:
    ///   - projectHandler: The handler of models without their own.
    ///   - modelHandlers: Per-model handlers, by model name.
    public init(projectHandler: ConflictHandlerKind = .automerge, modelHandlers: [String: ConflictHandlerKind] = [:]) {
        self.projectHandler = projectHandler
        self.modelHandlers = modelHandlers
    }

    /// The handler that resolves conflicts on `model`.
    public func handler(for model: String) -> ConflictHandlerKind {
        modelHandlers[model] ?? projectHandler
    }
}
