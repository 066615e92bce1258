import ArgumentParser
import DeltaSyncSchema

/// `--conflict-handler` values, named as users say them.
enum ConflictHandlerChoice: String, ExpressibleByArgument, CaseIterable {
    case automerge, optimistic, lambda

    var kind: ConflictHandlerKind {
        switch self {
        case .automerge: return .automerge
        case .optimistic: return .optimisticConcurrency
        case .lambda: return .lambda
        }
    }
}
