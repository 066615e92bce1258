import GraphQL
import NIOConcurrencyHelpers

/// Query text to its parsed document, for documents that passed validation against the
/// (immutable) schema. Bounded: when full it starts over, which costs one re-parse per
/// operation and never grows memory with hostile, ever-different queries.
final class ValidatedDocumentCache: Sendable {
    private let entries = NIOLockedValueBox<[String: Document]>([:])
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    subscript(query: String) -> Document? {
        get { entries.withLockedValue { $0[query] } }
        set {
            entries.withLockedValue { entries in
                if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
                entries[query] = newValue
            }
        }
    }
}
