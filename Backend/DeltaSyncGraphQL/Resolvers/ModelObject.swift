import DeltaSyncCore
import GraphQL

/// A stored item as the GraphQL executor sees it: fields resolve lazily from the item, and
/// relation resolvers get at the raw item.
struct ModelObject: KeySubscriptable, Sendable {
    let item: Item
    /// A write's sync metadata when `item` does not carry it: a delete without conflict
    /// detection answers the item as it was, but its event tells the other API's DataStore
    /// clients (``MutationEvent``) about the tombstone.
    var written: Item?

    init(item: Item, written: Item? = nil) {
        self.item = item
        self.written = written
    }

    subscript(key: String) -> (any Sendable)? { item[key]?.resolvable }
}

/// A non-model object stored inside an item (`location { lat lon }`), resolved like an item.
struct EmbeddedObject: KeySubscriptable, Sendable {
    let fields: [String: JSONValue]

    subscript(key: String) -> (any Sendable)? { fields[key]?.resolvable }
}
