import DeltaSyncCore
import DeltaSyncGraphQL

/// One started subscription of one connection.
final class Subscription: Sendable {
    /// The client's id, echoed verbatim.
    let id: String
    /// The subscription field (`onCreatePost`), for listing connections.
    let field: String
    let outbox: RealtimeOutbox
    /// The mutations whose events it receives (`@aws_subscribe(mutations:)`).
    let mutations: [String]
    /// How its events are written; shared with identical subscriptions.
    let eventPlan: EventPlan
    /// The `filter` argument; `.all` without one.
    let filter: QueryPredicate
    /// The other arguments: each must equal the same-named field of the event (an explicit
    /// null matches a null or missing field).
    let argumentFilters: [(field: String, value: JSONValue)]
    /// The items owner or dynamic group rules limit the subscriber to; `nil` for every item.
    let restriction: ItemRestriction?
    /// `{"type":"data","id":...,"payload":`, written once.
    let dataPrefix: [UInt8]

    init(
        id: String, field: String = "", outbox: RealtimeOutbox, mutations: [String], eventPlan: EventPlan, filter: QueryPredicate,
        argumentFilters: [(field: String, value: JSONValue)], restriction: ItemRestriction? = nil
    ) {
        self.id = id
        self.field = field
        self.outbox = outbox
        self.mutations = mutations
        self.eventPlan = eventPlan
        self.filter = filter
        self.argumentFilters = argumentFilters
        self.restriction = restriction
        self.dataPrefix = RealtimeServerMessage.dataPrefix(id: id)
    }

    /// The same subscription whose events must also match `predicate` (a subscription
    /// resolver's `setSubscriptionFilter`).
    func narrowed(by predicate: QueryPredicate) -> Subscription {
        Subscription(
            id: id, field: field, outbox: outbox, mutations: mutations, eventPlan: eventPlan, filter: filter.conjoined(with: predicate),
            argumentFilters: argumentFilters, restriction: restriction)
    }

    /// No filter and no arguments.
    var takesEveryEvent: Bool { argumentFilters.isEmpty && filter == .all && restriction == nil }

    func matches(_ data: Item) -> Bool {
        for (field, value) in argumentFilters where (data[field] ?? .null) != value { return false }
        if let restriction, !restriction.admits(data) { return false }
        return filter == .all || filter.matches(data)
    }
}
