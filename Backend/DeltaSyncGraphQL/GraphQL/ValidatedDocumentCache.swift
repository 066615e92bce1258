import GraphQL
import NIOConcurrencyHelpers

/// A document that passed validation against the (immutable) schema, with the plan of each of
/// its operations.
struct PreparedDocument: @unchecked Sendable {
    // AST nodes are immutable values of the parsed request; they are only read.
    let document: Document
    let plans: [ResponsePlan]
    /// The document's fragments by name, for the events of each mutation it runs.
    let fragments: [String: FragmentDefinition]

    init(document: Document, plans: [ResponsePlan]) {
        self.document = document
        self.plans = plans
        fragments = document.fragmentsByName
    }
}

/// Query text to its prepared document. Bounded: when full it starts over, which costs one
/// re-parse per operation and never grows memory with hostile, ever-different queries.
final class ValidatedDocumentCache: Sendable {
    private let entries = NIOLockedValueBox<[String: PreparedDocument]>([:])
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    subscript(query: String) -> PreparedDocument? {
        get { entries.withLockedValue { $0[query] } }
        set {
            entries.withLockedValue { entries in
                if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
                entries[query] = newValue
            }
        }
    }
}
