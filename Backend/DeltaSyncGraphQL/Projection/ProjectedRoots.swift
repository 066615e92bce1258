import DeltaSyncCore
import GraphQL
import NIOConcurrencyHelpers

/// Root values projection completed while the executor ran (``ResponsePlan/Root``), by
/// response key. The executor saw `null` for an object and an empty `items` list for a page;
/// ``complete(_:errors:projection:)`` puts each in its place once the executor is done.
///
/// This is the one channel between projection and the executor: the library completes every
/// value it is given field by field, so a value written by projection cannot pass through it.
final class ProjectedRoots: Sendable {
    private enum Value: Sendable {
        /// A `get` query's or a mutation's object.
        case object(Map)
        /// A connection's items, found in the response at `data.<path>.<itemsKey>`.
        case page(itemsKey: String, plan: ItemPlan, items: Items)
    }

    /// A page's items: already written, or to be written with their relations.
    enum Items: Sendable {
        case projected(ProjectedArray)
        case stored([Item])
    }

    /// Values by their place in `data`: a root field's key, or a relation connection's whole
    /// path (`getRecipe`, `tags`), list indices included.
    private let values = NIOLockedValueBox<[(path: [IndexPathValue], value: Value)]>([])

    /// Records the object completed for the root field at `key`.
    func object(_ key: String, _ object: Map) {
        values.withLockedValue { $0.append(([.key(key)], .object(object))) }
    }

    /// Records the items of the root connection at `key`.
    func page(_ key: String, plan: ResponsePlan.PagePlan, items: Items) {
        page(at: [.key(key)], plan: plan, items: items)
    }

    /// Records the items of the connection at `path` in `data`: a root one, or one a relation
    /// field answered somewhere below.
    func page(at path: [IndexPathValue], plan: ResponsePlan.PagePlan, items: Items) {
        values.withLockedValue { $0.append((path, .page(itemsKey: plan.itemsKey, plan: plan.items, items: items))) }
    }

    /// The executor's `data` with the objects in place of its `null`s, and the pages as
    /// splices where their connection is in `data` (an error elsewhere may have nulled it or
    /// a parent of it), with their items' errors added to `errors`.
    func complete(_ data: Map?, errors: inout [Map], projection: ItemProjection) async -> (Map?, [ResponseJSON.Splice]) {
        let values = values.withLockedValue { $0 }
        guard !values.isEmpty, case .dictionary(var fields)? = data else { return (data, []) }
        var splices: [ResponseJSON.Splice] = []
        for (path, value) in values {
            switch value {
            case .object(let object):
                if case .key(let key) = path.first, path.count == 1, fields[key] != nil { fields[key] = object }
            case .page(let itemsKey, let plan, let items):
                guard case .dictionary? = Self.value(at: path, in: .dictionary(fields)) else { continue }
                let array: ProjectedArray
                switch items {
                case .projected(let written): array = written
                case .stored(let stored): array = await projection.project(stored, plan: plan)
                }
                let place = path + [.key(itemsKey)]
                splices.append(ResponseJSON.Splice(path: ["data"] + place.map(Self.spliceKey), json: array.bytes))
                errors += array.errors(at: ResponsePath(place))
            }
        }
        return (.dictionary(fields), splices)
    }

    /// What `data` holds at `path`; `nil` where a parent is missing or null.
    private static func value(at path: [IndexPathValue], in data: Map) -> Map? {
        var current = data
        for element in path {
            switch (element, current) {
            case (.key(let key), .dictionary(let fields)):
                guard let next = fields[key] else { return nil }
                current = next
            case (.index(let index), .array(let elements)):
                guard elements.indices.contains(index) else { return nil }
                current = elements[index]
            default:
                return nil
            }
        }
        return current
    }

    /// A splice's path element: a response key, or a list index written in digits (no
    /// response key starts with a digit).
    private static func spliceKey(_ element: IndexPathValue) -> String {
        switch element {
        case .key(let key): return key
        case .index(let index): return String(index)
        }
    }
}
