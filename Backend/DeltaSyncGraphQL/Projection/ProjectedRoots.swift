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
        /// A connection's items, found in the response at `data.<root key>.<itemsKey>`.
        case page(itemsKey: String, plan: ItemPlan, items: Items)
    }

    /// A page's items: already written, or to be written with their relations.
    enum Items: Sendable {
        case projected(ProjectedArray)
        case stored([Item])
    }

    private let values = NIOLockedValueBox<[(key: String, value: Value)]>([])

    /// Records the object completed for the root field at `key`.
    func object(_ key: String, _ object: Map) {
        values.withLockedValue { $0.append((key, .object(object))) }
    }

    /// Records the items of the root connection at `key`.
    func page(_ key: String, plan: ResponsePlan.PagePlan, items: Items) {
        values.withLockedValue { $0.append((key, .page(itemsKey: plan.itemsKey, plan: plan.items, items: items))) }
    }

    /// The executor's `data` with the objects in place of its `null`s, and the pages as
    /// splices where their connection is in `data` (an error elsewhere may have nulled it),
    /// with their items' errors added to `errors`.
    func complete(_ data: Map?, errors: inout [Map], projection: ItemProjection) async -> (Map?, [ResponseJSON.Splice]) {
        let values = values.withLockedValue { $0 }
        guard !values.isEmpty, case .dictionary(var fields)? = data else { return (data, []) }
        var splices: [ResponseJSON.Splice] = []
        for (key, value) in values {
            switch value {
            case .object(let object):
                if fields[key] != nil { fields[key] = object }
            case .page(let itemsKey, let plan, let items):
                guard case .dictionary? = fields[key] else { continue }
                let array: ProjectedArray
                switch items {
                case .projected(let written): array = written
                case .stored(let stored): array = await projection.project(stored, plan: plan)
                }
                splices.append(ResponseJSON.Splice(path: ["data", key, itemsKey], json: array.bytes))
                errors += array.errors(at: ResponsePath([.key(key), .key(itemsKey)]))
            }
        }
        return (.dictionary(fields), splices)
    }
}
