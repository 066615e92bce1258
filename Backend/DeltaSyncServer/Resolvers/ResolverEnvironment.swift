import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncStorage
import Foundation
import GraphQL

/// What every resolver reads: the schema, the store, the token codec and the clock.
struct ResolverEnvironment: Sendable {
    let schema: AmplifySchema
    let store: any ItemStore
    let tokens: PageTokenCodec
    let clock: @Sendable () -> Date

    /// Now in epoch milliseconds, the unit of `_lastChangedAt` and `startedAt`.
    var nowMilliseconds: Int { Int((clock().timeIntervalSince1970 * 1000).rounded(.down)) }

    /// Now as AWSDateTime with milliseconds, as `$util.time.nowISO8601()` prints it.
    var nowISO8601: String { AWSDateTimeFormat.string(fromMilliseconds: nowMilliseconds) }

    func model(_ name: String) -> Model {
        guard let model = schema.model(named: name) else {
            preconditionFailure("resolver wired for unknown model \(name)")
        }
        return model
    }
}

/// A stored item as the GraphQL executor sees it: fields resolve lazily from the item, and
/// relation resolvers get at the raw item.
struct ItemObject: KeySubscriptable, Sendable {
    let item: Item

    subscript(key: String) -> (any Sendable)? { item[key]?.resolvable }
}
