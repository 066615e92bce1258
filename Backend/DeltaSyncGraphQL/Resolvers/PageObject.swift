import DeltaSyncSchema
import GraphQL

/// One page of a connection field (`ModelPostConnection`): what list, index, sync and nested
/// connection resolvers return, and what the executor completes.
struct PageObject: KeySubscriptable, Sendable {
    enum Items: Sendable {
        /// Items for the executor to complete.
        case objects([ModelObject])
        /// Items already written as JSON while the store read them (``ItemProjection``).
        case projected(ProjectedArray)
    }

    var items: Items
    var nextToken: String?
    /// When a sync query's page was taken: the next `lastSync`. `nil` for other queries.
    var startedAt: Int?

    init(items: Items, nextToken: String? = nil, startedAt: Int? = nil) {
        self.items = items
        self.nextToken = nextToken
        self.startedAt = startedAt
    }

    /// How many items the page holds.
    var count: Int {
        switch items {
        case .objects(let objects): return objects.count
        case .projected(let array): return array.count
        }
    }

    /// The executor reads fields by name; projected items are not its to complete (an empty
    /// list, replaced in the response).
    subscript(key: String) -> (any Sendable)? {
        switch key {
        case "items":
            guard case .objects(let objects) = items else { return [ModelObject?]() }
            return objects.map { Optional($0) }
        case "nextToken": return nextToken
        case "startedAt": return startedAt
        default: return nil
        }
    }
}
